"""Turn Faithfulness's declaration (read by :mod:`deepeval.metrics.registry`). It measures a single-turn metric over
windows of a conversation, so it is declared by hand rather than as a pipeline."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.turn_faithfulness.names import (
    ALL_SUPPORTED,
    GROUNDED_SHARE,
    NO_CONTRADICTION,
    REQUIRED_PARAMS,
)

DECLARATIONS = (
    MetricDeclaration(
        name="turn_faithfulness",
        public_name="TurnFaithfulnessMetric",
        cls="deepeval.metrics.turn_faithfulness.metric:TurnFaithfulnessMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_SUPPORTED, NO_CONTRADICTION, GROUNDED_SHARE),
        takes_eval_mode=True,
    ),
)
