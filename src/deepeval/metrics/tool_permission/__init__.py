"""Tool permission: did the agent call only the tools a policy allows (judge-free).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["ToolPermissionMetric"]
__getattr__ = lazy_exports(__name__, {"ToolPermissionMetric": "deepeval.metrics.tool_permission.metric"})
