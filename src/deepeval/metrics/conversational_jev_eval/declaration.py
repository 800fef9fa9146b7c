"""ConversationalJevEval's declaration (read by :mod:`deepeval.metrics.registry`): user-defined, System One only."""

from __future__ import annotations

from deepeval.metrics.conversational_jev_eval.names import REQUIRED_PARAMS
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="conversational_jev_eval",
        public_name="ConversationalJevEval",
        cls="deepeval.metrics.conversational_jev_eval.metric:ConversationalJevEval",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
    ),
)
