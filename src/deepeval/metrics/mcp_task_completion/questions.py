"""System One questions of :class:`MCPTaskCompletionMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: one 4-level question per exchange over ``{"task", "steps_taken"}``; system_one: yes/no (weight 2), yes/no
(weight 1) and a 4-level score over the turns (role, content, MCP calls, tools called): ``(2 P1 + P2 + E/3) / 4``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.mcp_task_completion import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "mcp_task_completion-q/2026-1"

COMPLETION_LEVELS = ["not completed", "partly completed", "mostly completed", "fully completed"]


class MCPTaskCompletionQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def judgement() -> str:
        return (
            "Judging only what the user sees in the agent's replies in `steps_taken` (tool results count only when "
            "relayed), how completely and correctly is the user's `task` completed?"
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "every_task",
                2.0,
                NoulQuestion(
                    instructions=(
                        "Is every task a user message in `turns` asks for completed by the assistant, as the user "
                        "sees it in the assistant's replies?"
                    ),
                    kind=names.EVERY_TASK,
                ),
                "every task the user asked for is completed",
            ),
            WeightedQuestion(
                "claims_backed",
                1.0,
                NoulQuestion(
                    instructions=(
                        "Is everything the assistant tells the user it did or found in `turns` backed by the MCP "
                        "calls and results in `turns`?"
                    ),
                    kind=names.CLAIMS_BACKED,
                ),
                "the assistant claims only what its MCP calls obtained",
            ),
            WeightedQuestion(
                "completion_level",
                1.0,
                ScoreQuestion(
                    instructions=(
                        "Across `turns`, how completely and correctly, as the user sees it, does the assistant "
                        "complete the tasks the user asks for?"
                    ),
                    levels=list(COMPLETION_LEVELS),
                    kind=names.COMPLETION_LEVEL,
                ),
                "how completely the tasks are completed",
            ),
        ]
