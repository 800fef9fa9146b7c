"""MCP task completion's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.mcp_task_completion.names import (
    CLAIMS_BACKED,
    COMPLETION_LEVEL,
    EVERY_TASK,
    REQUIRED_PARAMS,
    TASK_DONE,
)

DECLARATIONS = (
    MetricDeclaration(
        name="mcp_task_completion",
        public_name="MCPTaskCompletionMetric",
        cls="deepeval.metrics.mcp_task_completion.metric:MCPTaskCompletionMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        question_kinds=(EVERY_TASK, CLAIMS_BACKED, COMPLETION_LEVEL, TASK_DONE),
        takes_eval_mode=True,
    ),
)
