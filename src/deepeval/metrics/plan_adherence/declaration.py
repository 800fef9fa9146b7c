"""Plan adherence's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.plan_adherence.names import (
    EVERY_STEP,
    FOLLOWS_PLAN,
    HOW_STRICTLY,
    NOTHING_ELSE,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="plan_adherence",
        public_name="PlanAdherenceMetric",
        cls="deepeval.metrics.plan_adherence.metric:PlanAdherenceMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(FOLLOWS_PLAN, EVERY_STEP, NOTHING_ELSE, HOW_STRICTLY),
        takes_eval_mode=True,
    ),
)
