"""System One questions of :class:`PlanQualityMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: one 5-level question over ``{"task", "plan"}``; system_one: three choice questions with credits and a "no
plan stated" option (see :mod:`deepeval.metrics._engine.plan_metric`) over the compact trace or the input, output
and tools called."""

from __future__ import annotations

from deepeval.metrics._engine.plan_metric import CreditedChoice
from deepeval.metrics.plan_quality import names

QUESTION_SET_VERSION = "plan_quality-q/2026-1"

QUALITY_LEVELS = ["inadequate plan", "weak plan", "adequate but flawed plan", "good plan", "excellent plan"]
NO_PLAN = "the agent states no plan"


class PlanQualityQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def judgement() -> str:
        return (
            "How good is `plan` for accomplishing `task`: complete (every requirement and prerequisite), only "
            "necessary steps, in a sensible order, each specific enough to act on? Judge the plan, not its execution."
        )

    @staticmethod
    def whole_metric(has_trace: bool) -> list[CreditedChoice]:
        where = "`trace` (its reasoning, thoughts or an explicit plan)" if has_trace else "`actual_output`"
        goal = (
            "the task the user gave in the top span's input of `trace`"
            if has_trace
            else "the task in `input`"
        )
        return [
            CreditedChoice(
                "complete",
                2.0,
                f"Would the plan the agent states in {where}, carried out as written, fully accomplish {goal}, "
                "covering every requirement and prerequisite?",
                {
                    "yes, the plan is complete": 1.0,
                    "no, it misses a requirement or prerequisite": 0.0,
                    NO_PLAN: None,
                },
                "the plan is complete",
                names.COMPLETE,
            ),
            CreditedChoice(
                "steps_sound",
                1.0,
                f"Is every step of the plan the agent states in {where} specific enough to act on, necessary for "
                f"{goal}, and in a sensible order?",
                {
                    "yes, every step is clear, necessary and ordered": 1.0,
                    "no, a step is vague, redundant, off-task or out of order": 0.0,
                    NO_PLAN: None,
                },
                "every step is clear, necessary and ordered",
                names.STEPS_SOUND,
            ),
            CreditedChoice(
                "how_good",
                1.0,
                f"How good is the plan the agent states in {where} for accomplishing {goal}?",
                {**dict(zip(QUALITY_LEVELS, (0.0, 0.25, 0.5, 0.75, 1.0), strict=True)), NO_PLAN: None},
                "how good the plan is",
                names.HOW_GOOD,
            ),
        ]
