"""System One questions of :class:`TurnFaithfulnessMetric` (system_one mode; our own wording): three questions over the whole
conversation (``turns``, each with its role, content and retrieval context). Bump
``QUESTION_SET_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.turn_windows import whole_conversation_questions
from deepeval.metrics.turn_faithfulness import names

QUESTION_SET_VERSION = "turn_faithfulness-q/2026-1"

LEVELS = ["fabricated", "mostly fabricated", "mostly grounded", "fully grounded"]

SPECS = (
    (
        "all_supported",
        2.0,
        "Is every factual claim of an assistant turn of `turns` supported by the `retrieval_context` of that turn or of an earlier assistant turn?",
        "every claim of the assistant is supported by its retrieved context",
    ),
    (
        "no_contradiction",
        1.0,
        "Is every assistant turn of `turns` free of claims that contradict the `retrieval_context` available to it?",
        "no assistant turn contradicts its retrieved context",
    ),
    (
        "grounded_share",
        1.0,
        "Across `turns`, how much of what the assistant states is grounded in the `retrieval_context` available to it?",
        "how much of what the assistant states is grounded",
    ),
)


class TurnFaithfulnessQuestions:
    """``whole_metric(state)``: the three whole-conversation questions (weights 2, 1, 1)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def whole_metric(state: dict[str, Any]) -> list[WeightedQuestion]:
        return whole_conversation_questions(
            SPECS, LEVELS, state, (names.ALL_SUPPORTED, names.NO_CONTRADICTION, names.GROUNDED_SHARE)
        )
