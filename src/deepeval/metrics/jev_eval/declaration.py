"""JevEval's declaration (read by :mod:`deepeval.metrics.registry`): user-defined, System One only (no
``eval_mode`` argument, no kinds of its own, no judge-eval task)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.jev_eval.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="jev_eval",
        public_name="JevEval",
        cls="deepeval.metrics.jev_eval.metric:JevEval",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
    ),
)
