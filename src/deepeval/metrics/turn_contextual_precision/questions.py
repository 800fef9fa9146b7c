"""System One questions of :class:`TurnContextualPrecisionMetric` (system_one mode; our own wording): three questions over the whole
conversation (``turns``, each with its role, content and retrieval context, and ``expected_outcome``). Bump
``QUESTION_SET_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.turn_windows import whole_conversation_questions
from deepeval.metrics.turn_contextual_precision import names

QUESTION_SET_VERSION = "turn_contextual_precision-q/2026-1"

LEVELS = [
    "useful documents come last",
    "useful and other documents are interleaved",
    "useful documents mostly come first",
    "useful documents all come first",
]

SPECS = (
    (
        "useful_first",
        2.0,
        "In every assistant turn of `turns` that has a `retrieval_context`, do the documents that help answer the user messages before it (towards `expected_outcome`) come before the documents that do not?",
        "in every turn, useful nodes rank above the others",
    ),
    (
        "top_node_useful",
        1.0,
        "In every assistant turn of `turns` that has a `retrieval_context`, does its first document help answer the user messages before it?",
        "in every turn, the top-ranked node is useful",
    ),
    (
        "ranking",
        1.0,
        "Across the assistant turns of `turns`, how well are the `retrieval_context` documents that help answer the user ranked ahead of the others?",
        "how well the useful nodes are ranked first",
    ),
)


class TurnContextualPrecisionQuestions:
    """``whole_metric(state)``: the three whole-conversation questions (weights 2, 1, 1)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def whole_metric(state: dict[str, Any]) -> list[WeightedQuestion]:
        return whole_conversation_questions(
            SPECS, LEVELS, state, (names.USEFUL_FIRST, names.TOP_NODE_USEFUL, names.RANKING)
        )
