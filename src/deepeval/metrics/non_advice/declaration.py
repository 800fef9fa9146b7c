"""Non-advice's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.non_advice.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="NonAdviceMetric",
        cls="deepeval.metrics.non_advice.metric:NonAdviceMetric",
        example_args={"advice_types": ["medical"]},
    ),
)
