"""Tool permission's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.tool_permission.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="tool_permission",
        public_name="ToolPermissionMetric",
        cls="deepeval.metrics.tool_permission.metric:ToolPermissionMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        example_args={"denied_tools": ["delete_account"]},
    ),
)
