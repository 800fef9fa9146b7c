"""Step efficiency: whether an agent reached its goal without unneeded steps (judged, from its trace).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["EfficiencyVerdict", "StepEfficiencyMetric", "StepEfficiencyQuestions", "StepEfficiencyTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "StepEfficiencyMetric": "deepeval.metrics.step_efficiency.metric",
        "StepEfficiencyTemplate": "deepeval.metrics.step_efficiency.prompts",
        "StepEfficiencyQuestions": "deepeval.metrics.step_efficiency.questions",
        "EfficiencyVerdict": "deepeval.metrics.step_efficiency.schema",
    },
)
