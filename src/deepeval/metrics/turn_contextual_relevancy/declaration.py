"""Turn Contextual Relevancy's declaration (read by :mod:`deepeval.metrics.registry`). It measures a single-turn metric over
windows of a conversation, so it is declared by hand rather than as a pipeline."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.turn_contextual_relevancy.names import (
    ALL_RELEVANT,
    EVERY_NODE_RELEVANT,
    RELEVANT_SHARE,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="turn_contextual_relevancy",
        public_name="TurnContextualRelevancyMetric",
        cls="deepeval.metrics.turn_contextual_relevancy.metric:TurnContextualRelevancyMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_RELEVANT, EVERY_NODE_RELEVANT, RELEVANT_SHARE),
        takes_eval_mode=True,
    ),
)
