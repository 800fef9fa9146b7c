"""Agent responsiveness: did a (voice) agent answer every user turn that was owed an answer (judge-free).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["AgentResponsivenessMetric"]
__getattr__ = lazy_exports(
    __name__, {"AgentResponsivenessMetric": "deepeval.metrics.agent_responsiveness.metric"}
)
