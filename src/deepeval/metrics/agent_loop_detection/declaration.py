"""Agent loop detection's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.agent_loop_detection.names import REQUIRED_PARAMS
from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="agent_loop_detection",
        public_name="AgentLoopDetectionMetric",
        cls="deepeval.metrics.agent_loop_detection.metric:AgentLoopDetectionMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
    ),
)
