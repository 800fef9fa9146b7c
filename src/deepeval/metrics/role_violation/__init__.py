"""Role violation: does the output break the role the assistant was assigned?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "RoleViolationMetric", "RoleViolationTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "RoleViolationMetric": "deepeval.metrics.role_violation.metric",
        "PROMPT_VERSION": "deepeval.metrics.role_violation.prompts",
        "RoleViolationTemplate": "deepeval.metrics.role_violation.prompts",
    },
)
