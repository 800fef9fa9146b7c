"""Goal accuracy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.goal_accuracy.names import (
    EVERY_GOAL,
    GOAL_ACHIEVED,
    GOAL_LEVEL,
    PLAN_FOLLOWED,
    PLAN_LEVEL,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="goal_accuracy",
        public_name="GoalAccuracyMetric",
        cls="deepeval.metrics.goal_accuracy.metric:GoalAccuracyMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(EVERY_GOAL, GOAL_LEVEL, PLAN_LEVEL, GOAL_ACHIEVED, PLAN_FOLLOWED),
        takes_eval_mode=True,
    ),
)
