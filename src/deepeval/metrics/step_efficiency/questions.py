"""System One questions of :class:`StepEfficiencyMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: one 5-level question over ``{"task", "trace"}`` (only with a trace; without one the LLM judges);
system_one: three questions (yes/no weight 2, yes/no weight 1, 5-level score) over the compact trace or the input,
output and tools called: ``(2 P1 + P2 + E/4) / 4``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.step_efficiency import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "step_efficiency-q/2026-1"

EFFICIENCY_LEVELS = [
    "highly inefficient",
    "low efficiency",
    "moderate efficiency",
    "strong efficiency",
    "perfectly efficient",
]


class StepEfficiencyQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def judgement() -> str:
        return (
            "Judging only the number and directness of the steps in `trace` (not the quality of the result), how "
            "efficiently did the agent carry out `task`?"
        )

    @staticmethod
    def whole_metric(has_trace: bool) -> list[WeightedQuestion]:
        run = (
            "the agent run in `trace`" if has_trace else "`actual_output` (with the tools in `tools_called`)"
        )
        goal = "the task in the top span's input of `trace`" if has_trace else "the task in `input`"
        return [
            WeightedQuestion(
                "every_step_needed",
                2.0,
                NoulQuestion(
                    instructions=(
                        f"Was every step of {run} (each tool call, LLM call and retrieval) needed for {goal}, none "
                        "redundant, repeated or speculative?"
                    ),
                    kind=names.EVERY_STEP_NEEDED,
                ),
                "every step was needed",
            ),
            WeightedQuestion(
                "most_direct",
                1.0,
                NoulQuestion(
                    instructions=f"Does {run} take the most direct path to {goal}, without detours, re-queries or loops?",
                    kind=names.MOST_DIRECT,
                ),
                "the path was direct",
            ),
            WeightedQuestion(
                "how_efficient",
                1.0,
                ScoreQuestion(
                    instructions=(
                        f"Judging only the number and directness of its steps, how efficiently does {run} carry "
                        f"out {goal}?"
                    ),
                    levels=list(EFFICIENCY_LEVELS),
                    kind=names.HOW_EFFICIENT,
                ),
                "how efficient the steps were",
            ),
        ]
