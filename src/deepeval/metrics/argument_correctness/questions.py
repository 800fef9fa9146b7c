"""System One questions of :class:`ArgumentCorrectnessMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on
any change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: one yes/no question per tool call over the state ``{"input"}`` (the call quoted in the question);
system_one: three questions (yes/no weight 2, yes/no weight 1, 4-level score) over ``{"input", "tools_called"}``.
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.argument_correctness import names
from deepeval.metrics.delimit import quote
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "argument_correctness-q/2026-1"

CORRECT_SHARE_LEVELS = ["none of them", "less than half", "most of them", "all of them"]


class ArgumentCorrectnessQuestions:
    """``arguments_correct`` (hybrid) and ``whole_metric`` (system_one)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def arguments_correct(input: str, tool_call: dict[str, Any]) -> NoulQuestion:
        text = json.dumps(tool_call, ensure_ascii=False, default=str)
        return NoulQuestion(
            instructions=(
                "Are the input parameters of this tool call right for the request in `input` (the values it calls "
                "for, none missing, none made up)?\n" + quote("tool calls", text)
            ),
            kind=names.ARGUMENTS_CORRECT,
            data={"input": input, "tool_call": tool_call},
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "all_correct",
                2.0,
                NoulQuestion(
                    instructions="Does every tool call in `tools_called` pass input parameters that are right for `input`?",
                    kind=names.ALL_CORRECT,
                ),
                "every tool call's arguments are right for the input",
            ),
            WeightedQuestion(
                "none_wrong",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Is it true that no tool call in `tools_called` has input parameters that are missing, "
                        "unrelated to `input`, or wrong for it?"
                    ),
                    kind=names.NONE_WRONG,
                ),
                "no tool call has missing, unrelated or wrong arguments",
            ),
            WeightedQuestion(
                "correct_share",
                1.0,
                ScoreQuestion(
                    instructions="How many of the tool calls in `tools_called` pass input parameters that are right for `input`?",
                    levels=list(CORRECT_SHARE_LEVELS),
                    kind=names.CORRECT_SHARE,
                ),
                "how many calls have the right arguments",
            ),
        ]
