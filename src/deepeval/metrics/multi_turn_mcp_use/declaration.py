"""Multi-turn MCP use's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.multi_turn_mcp_use.names import (
    ARGUMENTS,
    PRIMITIVES,
    REQUIRED_PARAMS,
    RIGHT_ARGUMENTS,
    RIGHT_PRIMITIVES,
    USE_LEVEL,
)

DECLARATIONS = (
    MetricDeclaration(
        name="multi_turn_mcp_use",
        public_name="MultiTurnMCPUseMetric",
        cls="deepeval.metrics.multi_turn_mcp_use.metric:MultiTurnMCPUseMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(RIGHT_PRIMITIVES, RIGHT_ARGUMENTS, USE_LEVEL, PRIMITIVES, ARGUMENTS),
        takes_eval_mode=True,
    ),
)
