"""Toxicity's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.pipeline import declare
from deepeval.metrics.toxicity.pipeline import PIPELINE

DECLARATIONS = (
    declare(PIPELINE, public_name="ToxicityMetric", cls="deepeval.metrics.toxicity.metric:ToxicityMetric"),
)
