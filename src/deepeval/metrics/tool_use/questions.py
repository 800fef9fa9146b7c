"""System One questions of :class:`ToolUseMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any change:
it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: two 5-level questions per exchange (tool choice; arguments) over ``{"user_messages",
"assistant_messages", "tools_called", "available_tools"}``; system_one: two yes/no questions (weight 1 each) over
the turns (role, content, tools called) and ``available_tools``: ``(P1 + P2) / 2``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.tool_use import names
from deepeval.models.system_one.schema import NoulQuestion

QUESTION_SET_VERSION = "tool_use-q/2026-1"

SELECTION_LEVELS = [
    "irrelevant or unjustified",
    "poor selection",
    "mixed selection",
    "mostly correct",
    "perfectly matched",
]
ARGUMENT_LEVELS = ["nonsensical or unrelated", "poor", "partially correct", "mostly correct", "fully correct"]


class ToolUseQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def selection() -> str:
        return (
            "How well do the tools in `tools_called` (called while writing `assistant_messages`) fit what "
            "`user_messages` asked for, given the tools in `available_tools`? Unneeded or unrelated calls and an "
            "ignored better-suited tool count against it."
        )

    @staticmethod
    def arguments() -> str:
        return (
            "How correct are the arguments of the tool calls in `tools_called` for what `user_messages` asked and for "
            "each tool's definition in `available_tools`?"
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "all_selected_well",
                1.0,
                NoulQuestion(
                    instructions=(
                        "In every assistant turn of `turns`, are the tools in `tools_called` the best-suited of "
                        "`available_tools` for what the user asked, none unneeded or unrelated and no needed one "
                        "ignored?"
                    ),
                    kind=names.ALL_SELECTED_WELL,
                ),
                "every turn chose the right tools",
            ),
            WeightedQuestion(
                "all_arguments_right",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Does every tool call in the assistant turns of `turns` pass arguments that are correct, "
                        "specific and complete for the user's request and the tool's definition in `available_tools`?"
                    ),
                    kind=names.ALL_ARGUMENTS_RIGHT,
                ),
                "every tool call has the right arguments",
            ),
        ]
