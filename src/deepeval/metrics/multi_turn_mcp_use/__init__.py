"""Multi-turn MCP use: over a conversation, whether an MCP agent chose the right primitives and passed the right
arguments (judged, multi-turn).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["MultiTurnMCPUseMetric", "MultiTurnMCPUseQuestions", "MultiTurnMCPUseTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "MultiTurnMCPUseMetric": "deepeval.metrics.multi_turn_mcp_use.metric",
        "MultiTurnMCPUseTemplate": "deepeval.metrics.multi_turn_mcp_use.prompts",
        "MultiTurnMCPUseQuestions": "deepeval.metrics.multi_turn_mcp_use.questions",
    },
)
