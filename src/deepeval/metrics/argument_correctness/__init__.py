"""Argument correctness: whether each tool call's arguments are right for the user's input (judged).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "ArgumentCorrectnessMetric",
    "ArgumentCorrectnessQuestions",
    "ArgumentCorrectnessScoreReason",
    "ArgumentCorrectnessTemplate",
    "ArgumentCorrectnessVerdict",
    "Verdicts",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "ArgumentCorrectnessMetric": "deepeval.metrics.argument_correctness.metric",
        "ArgumentCorrectnessTemplate": "deepeval.metrics.argument_correctness.prompts",
        "ArgumentCorrectnessQuestions": "deepeval.metrics.argument_correctness.questions",
        "ArgumentCorrectnessVerdict": "deepeval.metrics.argument_correctness.schema",
        "ArgumentCorrectnessScoreReason": "deepeval.metrics.argument_correctness.schema",
        "Verdicts": "deepeval.metrics.argument_correctness.schema",
    },
)
