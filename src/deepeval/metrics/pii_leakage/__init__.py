"""PII leakage: does the output leak personal information?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "PIILeakageMetric", "PIILeakageTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "PIILeakageMetric": "deepeval.metrics.pii_leakage.metric",
        "PROMPT_VERSION": "deepeval.metrics.pii_leakage.prompts",
        "PIILeakageTemplate": "deepeval.metrics.pii_leakage.prompts",
    },
)
