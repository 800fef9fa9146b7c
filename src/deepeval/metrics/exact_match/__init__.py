"""Exact match: is ``actual_output`` the ``expected_output`` (surrounding whitespace aside)? No judge.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["ExactMatchMetric"]
__getattr__ = lazy_exports(__name__, {"ExactMatchMetric": "deepeval.metrics.exact_match.metric"})
