"""ExactMatchMetric: 1.0 when ``actual_output`` equals ``expected_output`` once leading and trailing whitespace is
stripped from both, else 0.0 (case and inner whitespace count), as deepeval 4.3.1. No judge, in any eval mode.

deepeval 4.3.1's constructor: ``threshold=1, verbose_mode=False, flaky=False``; required fields ``input``,
``actual_output`` and ``expected_output``; ``precision``, ``recall`` and ``f1`` are set to the score too.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric, checked_threshold
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics.exact_match.names import REQUIRED_PARAMS

MATCH_REASON = (
    "The actual output is identical to the expected output (leading and trailing whitespace aside)."
)
DIFFERENT_REASON = "The actual output differs from the expected output."


class ExactMatchMetric(JudgeFreeMetric):
    """1.0 for an exact match of the stripped outputs, else 0.0. Higher is better; ``threshold`` is a minimum."""

    score_digits = 2
    costs_nothing = False  # evaluation_cost stays unknown unless a judge reports one, as in deepeval 4.3.1

    precision: float | None = None
    recall: float | None = None
    f1: float | None = None

    def __init__(self, threshold: float | None = 1, verbose_mode: bool = False, flaky: bool = False) -> None:
        self.threshold = checked_threshold(threshold)
        self.verbose_mode = verbose_mode
        self.flaky = flaky
        self.include_reason = True
        self.strict_mode = False
        self.reset_result()

    @property
    def __name__(self) -> str:
        return "Exact Match"

    def _compute(self, test_case: Any) -> Computed:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)
        expected = test_case.expected_output.strip()
        actual = test_case.actual_output.strip()
        score = 1.0 if expected == actual else 0.0
        return Computed(
            score,
            MATCH_REASON if score else DIFFERENT_REASON,
            breakdown={"exact_match": bool(score)},
            attributes={"precision": score, "recall": score, "f1": score},  # as deepeval 4.3.1 sets them
            judge_calls=0,
        )

    def reset_result(self) -> None:
        super().reset_result()
        self.precision = self.recall = self.f1 = None
