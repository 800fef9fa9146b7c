"""System One questions of :class:`TaskCompletionMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

system_one mode: three questions (yes/no weight 2, yes/no weight 1, a 4-level score) over the state ``{"trace"}``
(the compact trace) or ``{"input", "actual_output", "tools_called"}``, plus ``"task"`` when the metric was given
one. hybrid: one 4-level score question over ``{"task", "outcome"}`` (the LLM extracted both).
"""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.task_completion import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "task_completion-q/2026-1"

#: the completion levels, worst first (4 levels, as deepeval 4.3.1 asks)
COMPLETION_LEVELS = ["not achieved", "partly achieved", "mostly achieved", "fully achieved"]


class TaskCompletionQuestions:
    """``whole_metric`` (system_one mode) and ``outcome_achieves_task`` (hybrid)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def whole_metric(has_trace: bool, has_task: bool) -> list[WeightedQuestion]:
        run = (
            "the agent run in `trace`" if has_trace else "`actual_output` (with the tools in `tools_called`)"
        )
        if has_task:
            goal = "the task in `task`"
        elif has_trace:
            goal = "the user's task (the input of the top span in `trace`)"
        else:
            goal = "the user's request in `input`"
        return [
            WeightedQuestion(
                "fully_accomplished",
                2.0,
                NoulQuestion(
                    instructions=f"Does {run} fully accomplish {goal}?", kind=names.FULLY_ACCOMPLISHED
                ),
                "the run fully accomplishes the task",
            ),
            WeightedQuestion(
                "outcome_is_the_ask",
                1.0,
                NoulQuestion(
                    instructions=(
                        f"Is the final result of {run} what {goal} asks for, rather than a partial result, another "
                        "result, or only a plan?"
                    ),
                    kind=names.OUTCOME_IS_THE_ASK,
                ),
                "the final result is what was asked for",
            ),
            WeightedQuestion(
                "completion_level",
                1.0,
                ScoreQuestion(
                    instructions=f"How completely does {run} accomplish {goal}?",
                    levels=list(COMPLETION_LEVELS),
                    kind=names.COMPLETION_LEVEL,
                ),
                "how completely the task was accomplished",
            ),
        ]

    @staticmethod
    def outcome_achieves_task() -> str:
        """The hybrid score question over ``{"task", "outcome"}``."""
        return "How completely does the agent's `outcome` achieve `task`?"
