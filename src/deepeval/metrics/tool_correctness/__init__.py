"""Tool correctness: did the agent call the tools it was expected to call (judge-free unless ``available_tools``
is given).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["ToolCorrectnessMetric", "ToolCorrectnessTemplate", "ToolSelectionScore"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ToolCorrectnessMetric": "deepeval.metrics.tool_correctness.metric",
        "ToolCorrectnessTemplate": "deepeval.metrics.tool_correctness.prompts",
        "ToolSelectionScore": "deepeval.metrics.tool_correctness.schema",
    },
)
