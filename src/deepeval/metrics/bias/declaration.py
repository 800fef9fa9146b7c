"""Bias' declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.bias.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (declare(PIPELINE, public_name="BiasMetric", cls="deepeval.metrics.bias.metric:BiasMetric"),)
