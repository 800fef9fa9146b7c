"""Turn Faithfulness: the mean over windows of Faithfulness: the share of the window's assistant claims its retrieval context does not contradict.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["TurnFaithfulnessMetric", "TurnFaithfulnessTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "TurnFaithfulnessMetric": "deepeval.metrics.turn_faithfulness.metric",
        "TurnFaithfulnessTemplate": "deepeval.metrics.turn_faithfulness.prompts",
    },
)
