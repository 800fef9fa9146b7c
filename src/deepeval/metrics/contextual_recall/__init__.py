"""Contextual recall: how much of the expected output the retrieval context supports.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "ContextualRecallMetric", "ContextualRecallTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ContextualRecallMetric": "deepeval.metrics.contextual_recall.metric",
        "PROMPT_VERSION": "deepeval.metrics.contextual_recall.prompts",
        "ContextualRecallTemplate": "deepeval.metrics.contextual_recall.prompts",
    },
)
