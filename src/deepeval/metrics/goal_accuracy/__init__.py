"""Goal accuracy: whether an assistant achieved each goal the user stated in a conversation, and planned and
followed its steps (judged, multi-turn).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "GoalAccuracyMetric",
    "GoalAccuracyQuestions",
    "GoalAccuracyTemplate",
    "GoalScore",
    "GoalSteps",
    "PlanScore",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "GoalAccuracyMetric": "deepeval.metrics.goal_accuracy.metric",
        "GoalAccuracyTemplate": "deepeval.metrics.goal_accuracy.prompts",
        "GoalAccuracyQuestions": "deepeval.metrics.goal_accuracy.questions",
        "GoalScore": "deepeval.metrics.goal_accuracy.schema",
        "GoalSteps": "deepeval.metrics.goal_accuracy.schema",
        "PlanScore": "deepeval.metrics.goal_accuracy.schema",
    },
)
