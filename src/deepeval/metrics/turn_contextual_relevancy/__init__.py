"""Turn Contextual Relevancy: the mean over windows of ContextualRelevancy: the share of the window's retrieval-context statements relevant to its user messages.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["TurnContextualRelevancyMetric", "TurnContextualRelevancyTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "TurnContextualRelevancyMetric": "deepeval.metrics.turn_contextual_relevancy.metric",
        "TurnContextualRelevancyTemplate": "deepeval.metrics.turn_contextual_relevancy.prompts",
    },
)
