"""Tool use: over a conversation, whether the assistant chose the right tools among ``available_tools`` and passed
them the right arguments (judged, multi-turn).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["ToolUseMetric", "ToolUseQuestions", "ToolUseTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ToolUseMetric": "deepeval.metrics.tool_use.metric",
        "ToolUseTemplate": "deepeval.metrics.tool_use.prompts",
        "ToolUseQuestions": "deepeval.metrics.tool_use.questions",
    },
)
