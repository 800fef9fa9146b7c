"""System One questions of :class:`TurnContextualRelevancyMetric` (system_one mode; our own wording): three questions over the whole
conversation (``turns``, each with its role, content and retrieval context). Bump
``QUESTION_SET_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.turn_windows import whole_conversation_questions
from deepeval.metrics.turn_contextual_relevancy import names

QUESTION_SET_VERSION = "turn_contextual_relevancy-q/2026-1"

LEVELS = ["none", "less than half", "most", "all"]

SPECS = (
    (
        "all_relevant",
        2.0,
        "Is every statement in the `retrieval_context` of each assistant turn of `turns` relevant to the user messages before it?",
        "every retrieved statement is relevant to the user's messages",
    ),
    (
        "every_node_relevant",
        1.0,
        "Does every document in the `retrieval_context` of each assistant turn of `turns` hold something relevant to the user messages before it?",
        "every retrieved node holds something relevant",
    ),
    (
        "relevant_share",
        1.0,
        "Across `turns`, how much of the assistant turns' `retrieval_context` is relevant to the user messages before it?",
        "how much of the retrieved context is relevant",
    ),
)


class TurnContextualRelevancyQuestions:
    """``whole_metric(state)``: the three whole-conversation questions (weights 2, 1, 1)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def whole_metric(state: dict[str, Any]) -> list[WeightedQuestion]:
        return whole_conversation_questions(
            SPECS, LEVELS, state, (names.ALL_RELEVANT, names.EVERY_NODE_RELEVANT, names.RELEVANT_SHARE)
        )
