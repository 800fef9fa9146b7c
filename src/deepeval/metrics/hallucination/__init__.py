"""Hallucination: whether the output agrees with every document of the given context.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "HallucinationMetric", "HallucinationTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "HallucinationMetric": "deepeval.metrics.hallucination.metric",
        "PROMPT_VERSION": "deepeval.metrics.hallucination.prompts",
        "HallucinationTemplate": "deepeval.metrics.hallucination.prompts",
    },
)
