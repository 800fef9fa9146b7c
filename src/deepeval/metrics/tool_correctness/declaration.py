"""Tool correctness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.tool_correctness.names import REQUIRED_PARAMS, TOOL_SELECTION

DECLARATIONS = (
    MetricDeclaration(
        name="tool_correctness",
        public_name="ToolCorrectnessMetric",
        cls="deepeval.metrics.tool_correctness.metric:ToolCorrectnessMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        question_kinds=(TOOL_SELECTION,),
        takes_eval_mode=True,
    ),
)
