"""Misuse's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.misuse.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="MisuseMetric",
        cls="deepeval.metrics.misuse.metric:MisuseMetric",
        example_args={"domain": "swimming pools"},
    ),
)
