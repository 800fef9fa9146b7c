"""Pattern match: does the whole ``actual_output`` match a regular expression? No judge.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PatternMatchMetric", "PatternMatchTimeoutError"]
__getattr__ = lazy_exports(
    __name__,
    {
        "PatternMatchMetric": "deepeval.metrics.pattern_match.metric",
        "PatternMatchTimeoutError": "deepeval.metrics.pattern_match.metric",
    },
)
