"""Plan quality: whether an agent stated a good plan (judged, from its trace).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PlanQualityMetric", "PlanQualityQuestions", "PlanQualityScore", "PlanQualityTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "PlanQualityMetric": "deepeval.metrics.plan_quality.metric",
        "PlanQualityTemplate": "deepeval.metrics.plan_quality.prompts",
        "PlanQualityQuestions": "deepeval.metrics.plan_quality.questions",
        "PlanQualityScore": "deepeval.metrics.plan_quality.schema",
    },
)
