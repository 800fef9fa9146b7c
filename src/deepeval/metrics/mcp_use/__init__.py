"""MCP use: whether an agent chose the right MCP tools, resources and prompts and passed them the right arguments
(judged).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["MCPArgsScore", "MCPPrimitivesScore", "MCPUseMetric", "MCPUseQuestions", "MCPUseTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "MCPUseMetric": "deepeval.metrics.mcp_use.metric",
        "MCPUseTemplate": "deepeval.metrics.mcp_use.prompts",
        "MCPUseQuestions": "deepeval.metrics.mcp_use.questions",
        "MCPArgsScore": "deepeval.metrics.mcp_use.schema",
        "MCPPrimitivesScore": "deepeval.metrics.mcp_use.schema",
    },
)
