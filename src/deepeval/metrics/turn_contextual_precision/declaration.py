"""Turn Contextual Precision's declaration (read by :mod:`deepeval.metrics.registry`). It measures a single-turn metric over
windows of a conversation, so it is declared by hand rather than as a pipeline."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.turn_contextual_precision.names import (
    RANKING,
    REQUIRED_PARAMS,
    TOP_NODE_USEFUL,
    USEFUL_FIRST,
)

DECLARATIONS = (
    MetricDeclaration(
        name="turn_contextual_precision",
        public_name="TurnContextualPrecisionMetric",
        cls="deepeval.metrics.turn_contextual_precision.metric:TurnContextualPrecisionMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(USEFUL_FIRST, TOP_NODE_USEFUL, RANKING),
        takes_eval_mode=True,
    ),
)
