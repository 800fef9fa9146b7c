"""Bias: the share of the output's opinions that are free of bias.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "BiasMetric", "BiasTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "BiasMetric": "deepeval.metrics.bias.metric",
        "PROMPT_VERSION": "deepeval.metrics.bias.prompts",
        "BiasTemplate": "deepeval.metrics.bias.prompts",
    },
)
