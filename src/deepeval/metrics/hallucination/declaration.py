"""Hallucination's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.hallucination.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="HallucinationMetric",
        cls="deepeval.metrics.hallucination.metric:HallucinationMetric",
    ),
)
