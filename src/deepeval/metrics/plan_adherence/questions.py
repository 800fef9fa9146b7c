"""System One questions of :class:`PlanAdherenceMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: one 5-level question over ``{"task", "plan", "trace"}`` (only with a trace; without one the LLM judges);
system_one: three choice questions with credits and a "no plan stated" option (see
:mod:`deepeval.metrics._engine.plan_metric`) over the compact trace or the input, output and tools called."""

from __future__ import annotations

from deepeval.metrics._engine.plan_metric import CreditedChoice
from deepeval.metrics.plan_adherence import names

QUESTION_SET_VERSION = "plan_adherence-q/2026-1"

ADHERENCE_LEVELS = [
    "no adherence",
    "weak adherence",
    "partial adherence",
    "strong adherence",
    "perfect adherence",
]
NO_PLAN = "the agent states no plan"


class PlanAdherenceQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def judgement() -> str:
        return (
            "How strictly do the actions in `trace` follow `plan`, the plan the agent stated for `task`: every "
            "planned step present, in order, and no major action outside it? Judge obedience to the plan only."
        )

    @staticmethod
    def whole_metric(has_trace: bool) -> list[CreditedChoice]:
        run = (
            "the agent run in `trace`" if has_trace else "`actual_output` (with the tools in `tools_called`)"
        )
        where = "`trace` (its reasoning, thoughts or an explicit plan)" if has_trace else "`actual_output`"
        return [
            CreditedChoice(
                "every_step",
                2.0,
                f"Does {run} carry out every step of the plan the agent states in {where}, explicitly and in order?",
                {
                    "yes, every planned step, in order": 1.0,
                    "no, a step is missing, only implied or out of order": 0.0,
                    NO_PLAN: None,
                },
                "every planned step is carried out in order",
                names.EVERY_STEP,
            ),
            CreditedChoice(
                "nothing_else",
                1.0,
                f"Does {run} take any major action, tool call or reasoning step outside the plan stated in {where}?",
                {"no, only what the plan says": 1.0, "yes, actions outside the plan": 0.0, NO_PLAN: None},
                "no major action outside the plan",
                names.NOTHING_ELSE,
            ),
            CreditedChoice(
                "how_strictly",
                1.0,
                f"How strictly do the actions of {run} follow the plan the agent states in {where}?",
                {**dict(zip(ADHERENCE_LEVELS, (0.0, 0.25, 0.5, 0.75, 1.0), strict=True)), NO_PLAN: None},
                "how strictly the plan is followed",
                names.HOW_STRICTLY,
            ),
        ]
