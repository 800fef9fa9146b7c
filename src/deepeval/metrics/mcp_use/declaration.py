"""MCP use's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.mcp_use.names import (
    ARGUMENTS,
    PRIMITIVES,
    REQUIRED_PARAMS,
    RIGHT_ARGUMENTS,
    RIGHT_PRIMITIVES,
    USE_LEVEL,
)

DECLARATIONS = (
    MetricDeclaration(
        name="mcp_use",
        public_name="MCPUseMetric",
        cls="deepeval.metrics.mcp_use.metric:MCPUseMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(RIGHT_PRIMITIVES, RIGHT_ARGUMENTS, USE_LEVEL, PRIMITIVES, ARGUMENTS),
        takes_eval_mode=True,
    ),
)
