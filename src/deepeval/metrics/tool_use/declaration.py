"""Tool use's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.tool_use.names import (
    ALL_ARGUMENTS_RIGHT,
    ALL_SELECTED_WELL,
    ARGUMENTS,
    REQUIRED_PARAMS,
    SELECTION,
)

DECLARATIONS = (
    MetricDeclaration(
        name="tool_use",
        public_name="ToolUseMetric",
        cls="deepeval.metrics.tool_use.metric:ToolUseMetric",
        conversational=True,
        required_params=REQUIRED_PARAMS,
        example_args={"available_tools": []},
        question_kinds=(ALL_SELECTED_WELL, ALL_ARGUMENTS_RIGHT, SELECTION, ARGUMENTS),
        takes_eval_mode=True,
    ),
)
