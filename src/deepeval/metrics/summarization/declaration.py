"""Summarization's declaration (read by :mod:`deepeval.metrics.registry`). It is not a single unit pipeline (two
scores, one of them from question answering), so it is declared by hand."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.summarization.names import (
    ALIGNED,
    COVERS_MAIN_POINTS,
    PRESERVED_SHARE,
    QUESTION_ANSWERABLE,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="summarization",
        public_name="SummarizationMetric",
        cls="deepeval.metrics.summarization.metric:SummarizationMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALIGNED, COVERS_MAIN_POINTS, PRESERVED_SHARE, QUESTION_ANSWERABLE),
        takes_eval_mode=True,
    ),
)
