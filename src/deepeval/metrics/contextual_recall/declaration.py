"""Contextual recall's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.contextual_recall.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="ContextualRecallMetric",
        cls="deepeval.metrics.contextual_recall.metric:ContextualRecallMetric",
    ),
)
