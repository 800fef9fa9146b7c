"""MCP task completion: whether an MCP agent completed each task the user asked for in a conversation (judged,
multi-turn).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["MCPTaskCompletionMetric", "MCPTaskCompletionQuestions", "MCPTaskCompletionTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "MCPTaskCompletionMetric": "deepeval.metrics.mcp_task_completion.metric",
        "MCPTaskCompletionTemplate": "deepeval.metrics.mcp_task_completion.prompts",
        "MCPTaskCompletionQuestions": "deepeval.metrics.mcp_task_completion.questions",
    },
)
