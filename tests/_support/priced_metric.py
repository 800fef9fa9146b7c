"""A custom metric that scores 1.0, makes no call and reports a given evaluation cost: costs a user prices
themselves (a pandas table, a flat fee), for the tests of how costs are summed and written."""

from __future__ import annotations

from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase


class PricedMetric(BaseMetric):
    """Scores 1.0 and reports ``cost`` as its evaluation cost (None: it reports none)."""

    def __init__(self, cost: float | None = None) -> None:
        self.threshold = 0.5
        self.cost = cost

    def measure(self, test_case: LLMTestCase, *args: object, **kwargs: object) -> float:
        self.score, self.success, self.reason = 1.0, True, "ok"
        self.evaluation_cost = self.cost
        return 1.0

    async def a_measure(self, test_case: LLMTestCase, *args: object, **kwargs: object) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return True

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Priced"
