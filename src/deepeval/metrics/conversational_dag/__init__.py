"""ConversationalDAGMetric and its nodes (``from deepeval.metrics.conversational_dag import ConversationalTaskNode,
...`` as in deepeval 4.3.1); imported on first use."""

from deepeval._lazy import lazy_exports

__all__ = [
    "ConversationalBaseNode",
    "ConversationalBinaryJudgementNode",
    "ConversationalDAGMetric",
    "ConversationalNonBinaryJudgementNode",
    "ConversationalTaskNode",
    "ConversationalVerdictNode",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "ConversationalDAGMetric": "deepeval.metrics.conversational_dag.metric",
        "ConversationalBaseNode": "deepeval.metrics.conversational_dag.nodes",
        "ConversationalBinaryJudgementNode": "deepeval.metrics.conversational_dag.nodes",
        "ConversationalNonBinaryJudgementNode": "deepeval.metrics.conversational_dag.nodes",
        "ConversationalTaskNode": "deepeval.metrics.conversational_dag.nodes",
        "ConversationalVerdictNode": "deepeval.metrics.conversational_dag.nodes",
    },
)
