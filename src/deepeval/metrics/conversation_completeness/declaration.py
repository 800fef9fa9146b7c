"""Conversation completeness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.conversation_completeness.names import (
    ALL_SATISFIED,
    NONE_IGNORED,
    REQUIRED_PARAMS,
    SATISFIED_SHARE,
)
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="conversation_completeness",
        public_name="ConversationCompletenessMetric",
        cls="deepeval.metrics.conversation_completeness.metric:ConversationCompletenessMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(ALL_SATISFIED, NONE_IGNORED, SATISFIED_SHARE),
        takes_eval_mode=True,
    ),
)
