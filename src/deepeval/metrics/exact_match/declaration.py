"""Exact match's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.exact_match.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="exact_match",
        public_name="ExactMatchMetric",
        cls="deepeval.metrics.exact_match.metric:ExactMatchMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
    ),
)
