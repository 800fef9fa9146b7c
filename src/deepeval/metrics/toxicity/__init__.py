"""Toxicity: the share of the output's opinions that are not toxic.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "ToxicityMetric", "ToxicityTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ToxicityMetric": "deepeval.metrics.toxicity.metric",
        "PROMPT_VERSION": "deepeval.metrics.toxicity.prompts",
        "ToxicityTemplate": "deepeval.metrics.toxicity.prompts",
    },
)
