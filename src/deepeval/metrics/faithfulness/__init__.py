"""Faithfulness: whether the claims of the output agree with the retrieval context.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "FaithfulnessMetric", "FaithfulnessTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "FaithfulnessMetric": "deepeval.metrics.faithfulness.metric",
        "PROMPT_VERSION": "deepeval.metrics.faithfulness.prompts",
        "FaithfulnessTemplate": "deepeval.metrics.faithfulness.prompts",
    },
)
