"""ContextualPrecisionMetric: whether the retrieval-context nodes useful for ``expected_output`` rank above the
others (its pipeline: :mod:`deepeval.metrics.contextual_precision.pipeline`). Requires ``input``,
``retrieval_context`` and ``expected_output``."""

from __future__ import annotations

from deepeval.metrics.contextual_precision.pipeline import PIPELINE
from deepeval.metrics.contextual_precision.prompts import ContextualPrecisionTemplate
from deepeval.metrics.pipeline import PipelineMetric


class ContextualPrecisionMetric(PipelineMetric):
    """Weighted cumulative precision of the retrieval context's ranking: 1.0 when every node useful for arriving at
    the expected output ranks above every node that is not, 0 when no node is useful. Higher is better. The
    constructor is :class:`~deepeval.metrics._engine.metric.EngineMetric`'s (deepeval 4.3.1's parameters, plus
    ``evaluation_template``, ``question_set`` and ``extractor`` by keyword)."""

    pipeline = PIPELINE
    default_template = ContextualPrecisionTemplate
