"""Agent responsiveness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration

DECLARATIONS = (
    MetricDeclaration(
        name="agent_responsiveness",
        public_name="AgentResponsivenessMetric",
        cls="deepeval.metrics.agent_responsiveness.metric:AgentResponsivenessMetric",
        conversational=True,
        required_params=("turns",),
    ),
)
