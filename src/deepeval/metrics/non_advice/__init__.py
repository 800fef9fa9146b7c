"""Non-advice: does the output avoid giving professional advice of the watched kinds?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "NonAdviceMetric", "NonAdviceTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "NonAdviceMetric": "deepeval.metrics.non_advice.metric",
        "PROMPT_VERSION": "deepeval.metrics.non_advice.prompts",
        "NonAdviceTemplate": "deepeval.metrics.non_advice.prompts",
    },
)
