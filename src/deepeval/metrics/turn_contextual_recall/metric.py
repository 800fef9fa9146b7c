"""TurnContextualRecallMetric: the mean over windows of ContextualRecall: the share of the sentences of ``expected_outcome`` the window's retrieval context supports (:mod:`deepeval.metrics._engine.turn_windows`
says how a conversation is cut into windows). Requires ``expected_outcome``."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.turn_windows import TurnWindowMetric, Window
from deepeval.metrics.contextual_recall.metric import ContextualRecallMetric
from deepeval.metrics.contextual_recall.schema import ContextualRecallScoreReason
from deepeval.metrics.turn_contextual_recall.prompts import TurnContextualRecallTemplate
from deepeval.metrics.turn_contextual_recall.questions import TurnContextualRecallQuestions
from deepeval.test_case import LLMTestCase


class TurnContextualRecallMetric(TurnWindowMetric):
    """The mean over windows of ContextualRecall: the share of the sentences of ``expected_outcome`` the window's retrieval context supports. Score in [0, 1]; higher is better; a conversation without retrieval context
    scores 1. ``window_size``: how many user-assistant interactions a window holds (4.3.1's default 10)."""

    single_turn = ContextualRecallMetric
    needs_expected_outcome = True
    default_template = TurnContextualRecallTemplate
    default_question_set = TurnContextualRecallQuestions
    reason_schema = ContextualRecallScoreReason

    @property
    def __name__(self) -> str:
        return "Turn Contextual Recall"

    def window_case(self, window: Window, test_case: Any) -> LLMTestCase:
        return LLMTestCase(
            input=window.user,
            expected_output=test_case.expected_outcome,
            retrieval_context=window.retrieval_context,
        )
