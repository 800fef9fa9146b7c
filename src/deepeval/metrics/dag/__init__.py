"""DAGMetric: a score from the user's decision graph.

``from deepeval.metrics.dag import DeepAcyclicGraph, TaskNode, BinaryJudgementNode, NonBinaryJudgementNode,
VerdictNode`` as in deepeval 4.3.1; exports are imported on first use.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "BaseNode",
    "BinaryJudgementNode",
    "DAGMetric",
    "DeepAcyclicGraph",
    "NonBinaryJudgementNode",
    "TaskNode",
    "VerdictNode",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "DAGMetric": "deepeval.metrics.dag.metric",
        "DeepAcyclicGraph": "deepeval.metrics.dag.graph",
        "BaseNode": "deepeval.metrics.dag.nodes",
        "BinaryJudgementNode": "deepeval.metrics.dag.nodes",
        "NonBinaryJudgementNode": "deepeval.metrics.dag.nodes",
        "TaskNode": "deepeval.metrics.dag.nodes",
        "VerdictNode": "deepeval.metrics.dag.nodes",
    },
)
