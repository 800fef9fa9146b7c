"""Plan quality's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.plan_quality.names import COMPLETE, HOW_GOOD, PLAN_GOOD, REQUIRED_PARAMS, STEPS_SOUND

DECLARATIONS = (
    MetricDeclaration(
        name="plan_quality",
        public_name="PlanQualityMetric",
        cls="deepeval.metrics.plan_quality.metric:PlanQualityMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(PLAN_GOOD, COMPLETE, STEPS_SOUND, HOW_GOOD),
        takes_eval_mode=True,
    ),
)
