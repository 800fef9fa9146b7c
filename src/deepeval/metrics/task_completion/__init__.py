"""Task completion: how fully an agent accomplished the task it was given (from its trace, or from the input,
output and tools called).

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "TaskAndOutcome",
    "TaskCompletionMetric",
    "TaskCompletionQuestions",
    "TaskCompletionTemplate",
    "TaskCompletionVerdict",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "TaskCompletionMetric": "deepeval.metrics.task_completion.metric",
        "TaskCompletionTemplate": "deepeval.metrics.task_completion.prompts",
        "TaskCompletionQuestions": "deepeval.metrics.task_completion.questions",
        "TaskAndOutcome": "deepeval.metrics.task_completion.schema",
        "TaskCompletionVerdict": "deepeval.metrics.task_completion.schema",
    },
)
