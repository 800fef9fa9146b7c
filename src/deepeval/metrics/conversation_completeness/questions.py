"""System One questions of :class:`ConversationCompletenessMetric` (our own wording). Bump ``QUESTION_SET_VERSION``
on any change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid: the request state holds the whole conversation once (``turns``); each question quotes its own intention.
system_one: three whole-metric questions over ``turns`` (yes = good). ``kind`` and ``data`` stay on each question for
local judges and never go over the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.conversation_completeness import names
from deepeval.metrics.delimit import declare_labels, quote
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "conversation_completeness-q/2026-1"

declare_labels("intention")

SATISFIED_LEVELS = ["none satisfied", "few satisfied", "most satisfied", "all satisfied"]


class ConversationCompletenessQuestions:
    """``intention_satisfied`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def intention_satisfied(intention: str) -> NoulQuestion:
        """Yes = the assistant turns in the state's ``turns`` fully satisfy ``intention``."""
        return NoulQuestion(
            instructions=(
                "By the end of `turns`, has the assistant fully satisfied this intention of the user? Answer no if "
                "it was ignored, refused without good cause or only partly met.\n"
                + quote("intention", intention)
            ),
            kind=names.INTENTION_SATISFIED,
            data={"intention": intention},
        )

    @staticmethod
    def whole_metric(turns: Sequence[Mapping[str, str]]) -> list[WeightedQuestion]:
        """Three questions over the state ``{"turns"}``: two yes/no (weights 2, 1), one score."""
        data = {"turns": list(turns)}
        return [
            WeightedQuestion(
                "all_satisfied",
                2.0,
                NoulQuestion(
                    instructions=(
                        "By the end of `turns`, has the assistant satisfied everything the user wanted from the "
                        "conversation?"
                    ),
                    kind=names.ALL_SATISFIED,
                    data=data,
                ),
                "every intention of the user is satisfied",
            ),
            WeightedQuestion(
                "none_ignored",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Is every request the user makes in `turns` addressed in full, none ignored, refused without "
                        "cause or left half done?"
                    ),
                    kind=names.NONE_IGNORED,
                    data=data,
                ),
                "no request of the user is ignored or left half done",
            ),
            WeightedQuestion(
                "satisfied_share",
                1.0,
                ScoreQuestion(
                    instructions="How many of the user's intentions in `turns` does the assistant satisfy?",
                    levels=list(SATISFIED_LEVELS),
                    kind=names.SATISFIED_SHARE,
                    data=data,
                ),
                "how many of the user's intentions are satisfied",
            ),
        ]
