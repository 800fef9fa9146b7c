"""ToyOverlapMetric: asks the embedded System One judge its own question kind and scores its P(yes)."""

from __future__ import annotations

from typing import Any

from deepeval._concurrency import run_sync
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics import BaseMetric
from deepeval.models.embedded import get_embedded_judge
from deepeval.models.system_one.schema import NoulQuestion

from .names import REQUIRED_PARAMS, SHARES_WORDS


class ToyOverlapMetric(BaseMetric):
    def __init__(self, threshold: float | None = 0.5, model: Any = None, include_reason: bool = True) -> None:
        self.threshold = threshold
        self.model = model
        self.include_reason = include_reason

    @property
    def __name__(self) -> str:
        return "ToyOverlap"

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return float(run_sync(self.a_measure(test_case)))

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.reset_result()
        missing = [p for p in REQUIRED_PARAMS if getattr(test_case, p, None) is None]
        if missing:
            raise MissingTestCaseParamsError(f"ToyOverlap needs {', '.join(missing)}")
        question = NoulQuestion(instructions="Does the output repeat the input's words?", kind=SHARES_WORDS)
        state = {"input": test_case.input, "actual_output": test_case.actual_output}
        answers, _ = await get_embedded_judge().a_decide(state, {"q": question})
        self.score = answers.nouls["q"].probability
        self.reason = (
            f"{self.score:.2f} of the input's words are in the output" if self.include_reason else None
        )
        self.evaluation_model = "deepeval-local-1"
        self.is_successful()
        return self.score


class ToyNoModelMetric(ToyOverlapMetric):
    """A user metric whose constructor takes only ``threshold`` (no ``model=``, no ``include_reason=``)."""

    def __init__(self, threshold: float | None = 0.5) -> None:
        super().__init__(threshold=threshold)


class ToyFailingMetric(ToyOverlapMetric):
    """A user metric whose constructor fails (a key it needs is missing)."""

    def __init__(self, threshold: float | None = 0.5) -> None:
        raise ValueError("needs API key XYZ")
