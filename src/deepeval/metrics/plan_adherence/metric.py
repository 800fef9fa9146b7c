"""PlanAdherenceMetric: how strictly an agent followed the plan it stated (deepeval 4.3.1's behaviour; see
:mod:`deepeval.metrics._engine.plan_metric` for every mode). Hybrid asks System One only when the test case has a
trace (as 4.3.1); without one the LLM judges."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.plan_metric import PlanJudgedMetric
from deepeval.metrics.agent_trace import compact_trace, run_text, trace_of
from deepeval.metrics.plan_adherence.names import FOLLOWS_PLAN
from deepeval.metrics.plan_adherence.prompts import PlanAdherenceTemplate
from deepeval.metrics.plan_adherence.questions import ADHERENCE_LEVELS, PlanAdherenceQuestions
from deepeval.metrics.plan_adherence.schema import PlanAdherenceScore

NO_PLAN_REASON = (
    "There were no plans to evaluate within the trace of your agent's execution. Please check if the agent's "
    "planning or reasoning or thinking is stored in any one of the trace attributes."
)


class PlanAdherenceMetric(PlanJudgedMetric):
    """How strictly the agent's actions follow its own stated plan. Score in [0, 1]; no plan found: 1.0."""

    default_template = PlanAdherenceTemplate
    default_question_set = PlanAdherenceQuestions
    score_schema = PlanAdherenceScore
    levels = ADHERENCE_LEVELS
    no_plan_reason = NO_PLAN_REASON
    hybrid_kind = FOLLOWS_PLAN
    judged_what = "plan adherence"

    @property
    def __name__(self) -> str:
        return "Plan Adherence"

    def judgement_state(self, task: str, plan: list[str], test_case: Any) -> dict[str, Any] | None:
        trace = trace_of(test_case)
        return None if trace is None else {"task": task, "plan": plan, "trace": compact_trace(trace)}

    def judgement_prompt(self, task: str, plan: list[str], test_case: Any) -> str:
        return self.evaluation_template.evaluate_adherence(
            user_task=task, agent_plan="\n".join(plan), execution_trace_json=run_text(test_case)
        )
