"""Role adherence's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.role_adherence.names import (
    ADHERENCE_LEVEL,
    ALL_IN_CHARACTER,
    NEVER_BREAKS,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="role_adherence",
        public_name="RoleAdherenceMetric",
        cls="deepeval.metrics.role_adherence.metric:RoleAdherenceMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_IN_CHARACTER, NEVER_BREAKS, ADHERENCE_LEVEL),
        takes_eval_mode=True,
    ),
)
