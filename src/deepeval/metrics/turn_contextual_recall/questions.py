"""System One questions of :class:`TurnContextualRecallMetric` (system_one mode; our own wording): three questions over the whole
conversation (``turns``, each with its role, content and retrieval context, and ``expected_outcome``). Bump
``QUESTION_SET_VERSION`` on any change: it feeds the cache key."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.turn_windows import whole_conversation_questions
from deepeval.metrics.turn_contextual_recall import names

QUESTION_SET_VERSION = "turn_contextual_recall-q/2026-1"

LEVELS = ["none of it", "less than half", "most of it", "all of it"]

SPECS = (
    (
        "all_attributable",
        2.0,
        "Can every sentence of `expected_outcome` be attributed to the facts in the `retrieval_context` of the assistant turns of `turns`?",
        "every sentence of the expected outcome is supported by the retrieved context",
    ),
    (
        "key_facts_present",
        1.0,
        "Does the `retrieval_context` of the assistant turns of `turns` hold the main facts needed to reach `expected_outcome`?",
        "the retrieved context holds the main facts of the expected outcome",
    ),
    (
        "attributable_share",
        1.0,
        "How much of `expected_outcome` can be attributed to the facts in the `retrieval_context` of the assistant turns of `turns`?",
        "how much of the expected outcome the retrieved context supports",
    ),
)


class TurnContextualRecallQuestions:
    """``whole_metric(state)``: the three whole-conversation questions (weights 2, 1, 1)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def whole_metric(state: dict[str, Any]) -> list[WeightedQuestion]:
        return whole_conversation_questions(
            SPECS, LEVELS, state, (names.ALL_ATTRIBUTABLE, names.KEY_FACTS_PRESENT, names.ATTRIBUTABLE_SHARE)
        )
