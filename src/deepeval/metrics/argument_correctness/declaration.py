"""Argument correctness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.argument_correctness.names import (
    ALL_CORRECT,
    ARGUMENTS_CORRECT,
    CORRECT_SHARE,
    NONE_WRONG,
    REQUIRED_PARAMS,
)
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="argument_correctness",
        public_name="ArgumentCorrectnessMetric",
        cls="deepeval.metrics.argument_correctness.metric:ArgumentCorrectnessMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_CORRECT, NONE_WRONG, CORRECT_SHARE, ARGUMENTS_CORRECT),
        takes_eval_mode=True,
    ),
)
