"""Plan adherence: whether an agent follows the plan it stated (judged, from its trace).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PlanAdherenceMetric", "PlanAdherenceQuestions", "PlanAdherenceScore", "PlanAdherenceTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "PlanAdherenceMetric": "deepeval.metrics.plan_adherence.metric",
        "PlanAdherenceTemplate": "deepeval.metrics.plan_adherence.prompts",
        "PlanAdherenceQuestions": "deepeval.metrics.plan_adherence.questions",
        "PlanAdherenceScore": "deepeval.metrics.plan_adherence.schema",
    },
)
