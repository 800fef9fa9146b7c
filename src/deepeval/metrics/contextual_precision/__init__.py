"""Contextual precision: whether the retrieval-context nodes useful for the expected output rank above the others.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "ContextualPrecisionMetric", "ContextualPrecisionTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ContextualPrecisionMetric": "deepeval.metrics.contextual_precision.metric",
        "PROMPT_VERSION": "deepeval.metrics.contextual_precision.prompts",
        "ContextualPrecisionTemplate": "deepeval.metrics.contextual_precision.prompts",
    },
)
