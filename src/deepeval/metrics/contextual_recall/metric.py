"""ContextualRecallMetric: the share of the expected output's sentences that the retrieval context supports (its
pipeline: :mod:`deepeval.metrics.contextual_recall.pipeline`). Requires ``input``, ``retrieval_context`` and
``expected_output``."""

from __future__ import annotations

from deepeval.metrics.contextual_recall.pipeline import PIPELINE
from deepeval.metrics.contextual_recall.prompts import ContextualRecallTemplate
from deepeval.metrics.pipeline import PipelineMetric


class ContextualRecallMetric(PipelineMetric):
    """Share of the sentences of ``expected_output`` that can be attributed to ``retrieval_context``. Score in
    [0, 1]; higher is better. The constructor is :class:`~deepeval.metrics._engine.metric.EngineMetric`'s (deepeval
    4.3.1's parameters, plus ``evaluation_template``, ``question_set`` and ``extractor`` by keyword)."""

    pipeline = PIPELINE
    default_template = ContextualRecallTemplate
