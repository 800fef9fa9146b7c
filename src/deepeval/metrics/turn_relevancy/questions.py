"""System One questions of :class:`TurnRelevancyMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid: the request state holds the whole conversation once (``turns``, JSON); each question names its window by
turn positions, so a request grows linearly with the conversation (quoting each window would repeat every turn up to
``window_size`` times). system_one: three whole-metric questions over ``turns`` (yes = good). ``kind`` and ``data``
stay on each question for local judges and never go over the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.turn_relevancy import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "turn_relevancy-q/2026-1"

RELEVANCE_LEVELS = ["mostly irrelevant", "several irrelevant replies", "mostly relevant", "all relevant"]


class TurnRelevancyQuestions:
    """``window_relevant`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def window_relevant(start: int, end: int, window: Sequence[Mapping[str, str]]) -> NoulQuestion:
        """Yes = the last assistant turn of ``turns[start:end]`` (positions in the state's ``turns``, 0-based) is
        relevant to the turns before it in that range. ``window`` (those turns) rides in ``data`` only."""
        return NoulQuestion(
            instructions=(
                f"Read `turns` {start} to {end - 1}. Is turn {end - 1}, the assistant's reply, relevant to what "
                "the user said before it in that range? A vague reply to a vague message such as a greeting "
                "counts as relevant; answer no only when it ignores the user or changes the subject."
            ),
            kind=names.TURN_RELEVANT,
            data={"window": list(window)},
        )

    @staticmethod
    def whole_metric(turns: Sequence[Mapping[str, str]]) -> list[WeightedQuestion]:
        """Three questions over the state ``{"turns"}``: two yes/no (weights 2, 1), one score."""
        data = {"turns": list(turns)}
        return [
            WeightedQuestion(
                "all_relevant",
                2.0,
                NoulQuestion(
                    instructions=(
                        "Is every assistant turn in `turns` relevant to the conversation up to it, given the user "
                        "turns before it?"
                    ),
                    kind=names.ALL_RELEVANT,
                    data=data,
                ),
                "every assistant reply is relevant to the conversation so far",
            ),
            WeightedQuestion(
                "none_off_topic",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Does every assistant turn in `turns` answer the user turn it follows, without ignoring it "
                        "or changing the subject?"
                    ),
                    kind=names.NONE_OFF_TOPIC,
                    data=data,
                ),
                "no assistant reply ignores the user or changes the subject",
            ),
            WeightedQuestion(
                "relevance_level",
                1.0,
                ScoreQuestion(
                    instructions="How relevant are the assistant turns in `turns` to the conversation so far?",
                    levels=list(RELEVANCE_LEVELS),
                    kind=names.RELEVANCE_LEVEL,
                    data=data,
                ),
                "how relevant the assistant's replies are",
            ),
        ]
