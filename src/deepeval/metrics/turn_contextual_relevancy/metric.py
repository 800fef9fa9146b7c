"""TurnContextualRelevancyMetric: the mean over windows of ContextualRelevancy: the share of the window's retrieval-context statements relevant to its user messages (:mod:`deepeval.metrics._engine.turn_windows`
says how a conversation is cut into windows)."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.params import has_words
from deepeval.metrics._engine.turn_windows import TurnWindowMetric, Window
from deepeval.metrics.contextual_relevancy.metric import ContextualRelevancyMetric
from deepeval.metrics.contextual_relevancy.schema import ContextualRelevancyScoreReason
from deepeval.metrics.turn_contextual_relevancy.prompts import TurnContextualRelevancyTemplate
from deepeval.metrics.turn_contextual_relevancy.questions import TurnContextualRelevancyQuestions
from deepeval.test_case import LLMTestCase


class TurnContextualRelevancyMetric(TurnWindowMetric):
    """The mean over windows of ContextualRelevancy: the share of the window's retrieval-context statements relevant to its user messages. Score in [0, 1]; higher is better; a conversation without retrieval context
    scores 1. ``window_size``: how many user-assistant interactions a window holds (4.3.1's default 10)."""

    single_turn = ContextualRelevancyMetric
    needs_expected_outcome = False
    default_template = TurnContextualRelevancyTemplate
    default_question_set = TurnContextualRelevancyQuestions
    reason_schema = ContextualRelevancyScoreReason

    @property
    def __name__(self) -> str:
        return "Turn Contextual Relevancy"

    def window_case(self, window: Window, test_case: Any) -> LLMTestCase:
        return LLMTestCase(
            input=window.user,
            actual_output=window.assistant if has_words(window.assistant) else "-",
            retrieval_context=window.retrieval_context,
        )
