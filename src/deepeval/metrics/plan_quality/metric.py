"""PlanQualityMetric: how good the plan an agent stated is for its task (deepeval 4.3.1's behaviour; see
:mod:`deepeval.metrics._engine.plan_metric` for every mode)."""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.plan_metric import PlanJudgedMetric
from deepeval.metrics.plan_quality.names import PLAN_GOOD
from deepeval.metrics.plan_quality.prompts import PlanQualityTemplate
from deepeval.metrics.plan_quality.questions import QUALITY_LEVELS, PlanQualityQuestions
from deepeval.metrics.plan_quality.schema import PlanQualityScore

NO_PLAN_REASON = (
    "There are no plans to evaluate within the trace of your agent's execution. Please check if the agent's "
    "planning or reasoning or thinking is stored in the trace attributes."
)


class PlanQualityMetric(PlanJudgedMetric):
    """How good the agent's stated plan is for its task. Score in [0, 1]; no plan found: 1.0."""

    default_template = PlanQualityTemplate
    default_question_set = PlanQualityQuestions
    score_schema = PlanQualityScore
    levels = QUALITY_LEVELS
    no_plan_reason = NO_PLAN_REASON
    hybrid_kind = PLAN_GOOD
    judged_what = "plan quality"

    @property
    def __name__(self) -> str:
        return "Plan Quality"

    def judgement_prompt(self, task: str, plan: list[str], test_case: Any) -> str:
        return self.evaluation_template.evaluate_plan_quality(user_task=task, agent_plan="\n".join(plan))
