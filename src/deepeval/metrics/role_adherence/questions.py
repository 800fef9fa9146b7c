"""System One questions of :class:`RoleAdherenceMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid: the request state holds the role and the whole conversation once (``chatbot_role``, ``turns``); each
question names its assistant turn by position. system_one: three whole-metric questions over ``turns`` and
``chatbot_role`` (yes = good). ``kind`` and ``data`` stay on each question for local judges and never go over the
wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.role_adherence import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "role_adherence-q/2026-1"

ADHERENCE_LEVELS = [
    "mostly out of character",
    "often out of character",
    "rarely out of character",
    "always in character",
]


class RoleAdherenceQuestions:
    """``turn_in_character`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def turn_in_character(index: int, message: str, role: str) -> NoulQuestion:
        """Yes = assistant turn ``index`` of the state's ``turns`` stays in the role ``chatbot_role``."""
        return NoulQuestion(
            instructions=(
                f"Does turn {index} of `turns`, the assistant's reply after the turns before it, stay in character "
                "as the role in `chatbot_role` (persona, tone, knowledge and behaviour)? Answer no if it breaks "
                "character or acts against the role."
            ),
            kind=names.TURN_IN_CHARACTER,
            data={"index": index, "ai_message": message, "chatbot_role": role},
        )

    @staticmethod
    def whole_metric(turns: Sequence[Mapping[str, str]], role: str) -> list[WeightedQuestion]:
        """Three questions over the state ``{"turns", "chatbot_role"}``: two yes/no (weights 2, 1), one score."""
        data = {"turns": list(turns), "chatbot_role": role}
        return [
            WeightedQuestion(
                "all_in_character",
                2.0,
                NoulQuestion(
                    instructions="Does every assistant turn in `turns` stay in the role described in `chatbot_role`?",
                    kind=names.ALL_IN_CHARACTER,
                    data=data,
                ),
                "every assistant turn stays in character",
            ),
            WeightedQuestion(
                "never_breaks",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Does the assistant in `turns` keep the persona, tone and behaviour of `chatbot_role` even "
                        "when the user pushes it to drop them?"
                    ),
                    kind=names.NEVER_BREAKS,
                    data=data,
                ),
                "the assistant never breaks character, even when pushed",
            ),
            WeightedQuestion(
                "adherence_level",
                1.0,
                ScoreQuestion(
                    instructions="How consistently do the assistant turns in `turns` keep to the role in `chatbot_role`?",
                    levels=list(ADHERENCE_LEVELS),
                    kind=names.ADHERENCE_LEVEL,
                    data=data,
                ),
                "how consistently the assistant keeps to its role",
            ),
        ]
