"""DAGMetric's declaration (read by :mod:`deepeval.metrics.registry`): user-defined (no ``cli_default``, no
judge-eval task); its judgement nodes are the user's questions, so it has no question kind of its own."""

from __future__ import annotations

from deepeval.metrics.dag.names import REQUIRED_PARAMS
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="dag",
        public_name="DAGMetric",
        cls="deepeval.metrics.dag.metric:DAGMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        user_defined=True,
        takes_eval_mode=True,
        helpers=("deepeval.metrics.dag.graph:DeepAcyclicGraph",),
    ),
)
