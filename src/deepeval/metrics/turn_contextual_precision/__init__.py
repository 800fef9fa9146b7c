"""Turn Contextual Precision: the mean over windows of ContextualPrecision's weighted cumulative precision of the window's retrieval context (the nodes useful for ``expected_outcome`` ranked first).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["TurnContextualPrecisionMetric", "TurnContextualPrecisionTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "TurnContextualPrecisionMetric": "deepeval.metrics.turn_contextual_precision.metric",
        "TurnContextualPrecisionTemplate": "deepeval.metrics.turn_contextual_precision.prompts",
    },
)
