"""Contextual precision's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.contextual_precision.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="ContextualPrecisionMetric",
        cls="deepeval.metrics.contextual_precision.metric:ContextualPrecisionMetric",
    ),
)
