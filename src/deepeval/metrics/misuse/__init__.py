"""Misuse: does a domain-specialised chatbot's output stay within its domain?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "MisuseMetric", "MisuseTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "MisuseMetric": "deepeval.metrics.misuse.metric",
        "PROMPT_VERSION": "deepeval.metrics.misuse.prompts",
        "MisuseTemplate": "deepeval.metrics.misuse.prompts",
    },
)
