"""TurnContextualPrecisionMetric: the mean over windows of ContextualPrecision's weighted cumulative precision of the window's retrieval context (the nodes useful for ``expected_outcome`` ranked first) (:mod:`deepeval.metrics._engine.turn_windows`
says how a conversation is cut into windows). Requires ``expected_outcome``."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.turn_windows import TurnWindowMetric, Window
from deepeval.metrics.contextual_precision.metric import ContextualPrecisionMetric
from deepeval.metrics.contextual_precision.schema import ContextualPrecisionScoreReason
from deepeval.metrics.turn_contextual_precision.prompts import TurnContextualPrecisionTemplate
from deepeval.metrics.turn_contextual_precision.questions import TurnContextualPrecisionQuestions
from deepeval.test_case import LLMTestCase


class TurnContextualPrecisionMetric(TurnWindowMetric):
    """The mean over windows of ContextualPrecision's weighted cumulative precision of the window's retrieval context (the nodes useful for ``expected_outcome`` ranked first). Score in [0, 1]; higher is better; a conversation without retrieval context
    scores 1. ``window_size``: how many user-assistant interactions a window holds (4.3.1's default 10)."""

    single_turn = ContextualPrecisionMetric
    needs_expected_outcome = True
    default_template = TurnContextualPrecisionTemplate
    default_question_set = TurnContextualPrecisionQuestions
    reason_schema = ContextualPrecisionScoreReason

    @property
    def __name__(self) -> str:
        return "Turn Contextual Precision"

    def window_case(self, window: Window, test_case: Any) -> LLMTestCase:
        return LLMTestCase(
            input=window.user,
            expected_output=test_case.expected_outcome,
            retrieval_context=window.retrieval_context,
        )
