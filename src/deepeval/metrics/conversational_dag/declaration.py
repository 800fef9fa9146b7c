"""ConversationalDAGMetric's declaration (read by :mod:`deepeval.metrics.registry`): user-defined."""

from __future__ import annotations

from deepeval.metrics.conversational_dag.names import REQUIRED_PARAMS
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="conversational_dag",
        public_name="ConversationalDAGMetric",
        cls="deepeval.metrics.conversational_dag.metric:ConversationalDAGMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
        takes_eval_mode=True,
    ),
)
