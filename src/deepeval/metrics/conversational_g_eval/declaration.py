"""ConversationalGEval's declaration (read by :mod:`deepeval.metrics.registry`); user-defined, like GEval's (no
``cli_default``, no judge-eval task, no embedded table)."""

from __future__ import annotations

from deepeval.metrics.conversational_g_eval.names import REQUIRED_PARAMS
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="conversational_g_eval",
        public_name="ConversationalGEval",
        cls="deepeval.metrics.conversational_g_eval.metric:ConversationalGEval",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
        takes_eval_mode=True,
    ),
)
