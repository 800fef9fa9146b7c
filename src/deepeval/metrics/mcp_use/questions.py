"""System One questions of :class:`MCPUseMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any change:
it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: two 4-level questions over ``{"input", "actual_output", "mcp_servers", "primitives_used"}``; system_one:
yes/no (weight 2), yes/no (weight 1) and a 4-level score over the same state: ``(2 P1 + P2 + E/3) / 4``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.mcp_use import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "mcp_use-q/2026-1"

PRIMITIVE_LEVELS = ["wrong primitives", "poor choice", "reasonable choice", "best choice"]
ARGUMENT_LEVELS = ["incorrect", "mostly incorrect", "mostly correct", "fully correct"]
USE_LEVELS = ["wrong use", "poor use", "adequate use", "correct use"]


class MCPUseQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def primitives() -> str:
        return (
            "Judging only which MCP tools, resources and prompts were chosen, how well do the ones in "
            "`primitives_used` fit what `input` asked for, given every primitive `mcp_servers` offered?"
        )

    @staticmethod
    def arguments() -> str:
        return (
            "How correct are the arguments of the MCP calls in `primitives_used`: do they fit each primitive's input "
            "schema in `mcp_servers` and carry the values `input` calls for?"
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "right_primitives",
                2.0,
                NoulQuestion(
                    instructions=(
                        "Are the MCP tools, resources and prompts the agent used (`primitives_used`) the right ones "
                        "among those in `mcp_servers` for what `input` asks, none clearly better missed and none "
                        "unneeded?"
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
                        "Does every MCP call in `primitives_used` pass arguments that fit the primitive's input "
                        "schema in `mcp_servers` and carry the values `input` calls for?"
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
                        "Overall, how well does the agent use the MCP servers in `mcp_servers`, in the primitives "
                        "chosen and the arguments passed, to address `input`?"
                    ),
                    levels=list(USE_LEVELS),
                    kind=names.USE_LEVEL,
                ),
                "how well the MCP servers were used",
            ),
        ]
