"""Step efficiency's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.step_efficiency.names import (
    EFFICIENT,
    EVERY_STEP_NEEDED,
    HOW_EFFICIENT,
    MOST_DIRECT,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="step_efficiency",
        public_name="StepEfficiencyMetric",
        cls="deepeval.metrics.step_efficiency.metric:StepEfficiencyMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(EVERY_STEP_NEEDED, MOST_DIRECT, HOW_EFFICIENT, EFFICIENT),
        takes_eval_mode=True,
    ),
)
