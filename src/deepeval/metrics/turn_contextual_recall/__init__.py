"""Turn Contextual Recall: the mean over windows of ContextualRecall: the share of the sentences of ``expected_outcome`` the window's retrieval context supports.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["TurnContextualRecallMetric", "TurnContextualRecallTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "TurnContextualRecallMetric": "deepeval.metrics.turn_contextual_recall.metric",
        "TurnContextualRecallTemplate": "deepeval.metrics.turn_contextual_recall.prompts",
    },
)
