"""Answer relevancy's declaration (read by :mod:`deepeval.metrics.registry`); its judge-eval task comes from the
pipeline's gold labels (items: ``input``, ``actual_output``, ``statements: [{text, label, tags}]``)."""

from __future__ import annotations

from deepeval.metrics.answer_relevancy.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE,
        public_name="AnswerRelevancyMetric",
        cls="deepeval.metrics.answer_relevancy.metric:AnswerRelevancyMetric",
        cli_default="single_turn",
    ),
)
