"""Turn Contextual Recall's declaration (read by :mod:`deepeval.metrics.registry`). It measures a single-turn metric over
windows of a conversation, so it is declared by hand rather than as a pipeline."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.turn_contextual_recall.names import (
    ALL_ATTRIBUTABLE,
    ATTRIBUTABLE_SHARE,
    KEY_FACTS_PRESENT,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="turn_contextual_recall",
        public_name="TurnContextualRecallMetric",
        cls="deepeval.metrics.turn_contextual_recall.metric:TurnContextualRecallMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_ATTRIBUTABLE, KEY_FACTS_PRESENT, ATTRIBUTABLE_SHARE),
        takes_eval_mode=True,
    ),
)
