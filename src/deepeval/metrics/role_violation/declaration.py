"""Role violation's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.pipeline import declare
from deepeval.metrics.role_violation.pipeline import PIPELINE

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="RoleViolationMetric",
        cls="deepeval.metrics.role_violation.metric:RoleViolationMetric",
        example_args={"role": "pool receptionist"},
    ),
)
