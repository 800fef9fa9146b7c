"""System One questions of :class:`MultiTurnMCPUseMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: two 4-level questions per exchange over ``{"task", "steps_taken", "mcp_servers"}``; system_one: yes/no
(weight 2), yes/no (weight 1) and a 4-level score over the turns and ``mcp_servers``: ``(2 P1 + P2 + E/3) / 4``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.multi_turn_mcp_use import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "multi_turn_mcp_use-q/2026-1"

PRIMITIVE_LEVELS = ["wrong primitives", "poor choice", "reasonable choice", "best choice"]
ARGUMENT_LEVELS = ["incorrect", "mostly incorrect", "mostly correct", "fully correct"]
USE_LEVELS = ["wrong use", "poor use", "adequate use", "correct use"]


class MultiTurnMCPUseQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def primitives() -> str:
        return (
            "Judging only which MCP tools, resources and prompts the agent chose in `steps_taken`, how well do they fit "
            "the user's `task`, given every primitive `mcp_servers` offered?"
        )

    @staticmethod
    def arguments() -> str:
        return (
            "How correct are the arguments of the MCP calls in `steps_taken`: do they fit each primitive's input schema "
            "in `mcp_servers` and carry the values the user's `task` calls for?"
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "right_primitives",
                2.0,
                NoulQuestion(
                    instructions=(
                        "In every assistant turn in `turns`, are the MCP primitives called the right ones among those "
                        "in `mcp_servers` for what the user asked, none clearly better missed and none unneeded?"
                    ),
                    kind=names.RIGHT_PRIMITIVES,
                ),
                "the right MCP primitives were used",
            ),
            WeightedQuestion(
                "right_arguments",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Does every MCP call in `turns` pass arguments that fit the primitive's input schema in "
                        "`mcp_servers` and carry the values the user asked for?"
                    ),
                    kind=names.RIGHT_ARGUMENTS,
                ),
                "every MCP call has the right arguments",
            ),
            WeightedQuestion(
                "use_level",
                1.0,
                ScoreQuestion(
                    instructions=(
                        "Across `turns`, how well does the assistant use the MCP servers in `mcp_servers`, in the "
                        "primitives chosen and the arguments passed, to serve the user's requests?"
                    ),
                    levels=list(USE_LEVELS),
                    kind=names.USE_LEVEL,
                ),
                "how well the MCP servers were used",
            ),
        ]
