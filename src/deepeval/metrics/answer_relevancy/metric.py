"""AnswerRelevancyMetric: how much of ``actual_output`` is relevant to ``input`` (its pipeline, every eval mode:
:mod:`deepeval.metrics.answer_relevancy.pipeline`)."""

from __future__ import annotations

from deepeval.metrics.answer_relevancy.pipeline import (
    BLANK_OUTPUT_REASON,
    NO_STATEMENTS_REASON,
    NO_WORDS_REASON,
    PIPELINE,
)
from deepeval.metrics.answer_relevancy.prompts import AnswerRelevancyTemplate
from deepeval.metrics.pipeline import PipelineMetric

__all__ = ["BLANK_OUTPUT_REASON", "NO_STATEMENTS_REASON", "NO_WORDS_REASON", "AnswerRelevancyMetric"]


class AnswerRelevancyMetric(PipelineMetric):
    """Share of the output's statements that are relevant to the input. Score in [0, 1]; higher is better.
    Requires ``input`` and ``actual_output``. Constructor: see
    :class:`~deepeval.metrics._engine.metric.EngineMetric`."""

    pipeline = PIPELINE
    default_template = AnswerRelevancyTemplate
