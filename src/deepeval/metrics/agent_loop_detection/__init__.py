"""Agent loop detection: repeated tool calls, stagnating reasoning and recursive call paths in an agent's trace
(judge-free).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["AgentLoopDetectionMetric"]
__getattr__ = lazy_exports(
    __name__, {"AgentLoopDetectionMetric": "deepeval.metrics.agent_loop_detection.metric"}
)
