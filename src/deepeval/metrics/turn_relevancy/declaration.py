"""Turn relevancy's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.turn_relevancy.names import (
    ALL_RELEVANT,
    NONE_OFF_TOPIC,
    RELEVANCE_LEVEL,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="turn_relevancy",
        public_name="TurnRelevancyMetric",
        cls="deepeval.metrics.turn_relevancy.metric:TurnRelevancyMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_RELEVANT, NONE_OFF_TOPIC, RELEVANCE_LEVEL),
        takes_eval_mode=True,
    ),
)
