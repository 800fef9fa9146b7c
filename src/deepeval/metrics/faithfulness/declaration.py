"""Faithfulness' declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.faithfulness.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="FaithfulnessMetric",
        cls="deepeval.metrics.faithfulness.metric:FaithfulnessMetric",
    ),
)
