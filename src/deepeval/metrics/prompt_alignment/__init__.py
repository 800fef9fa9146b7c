"""Prompt alignment: does the output follow the instructions of the application's prompt?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "PromptAlignmentMetric",
    "PromptAlignmentQuestions",
    "PromptAlignmentTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "PromptAlignmentMetric": "deepeval.metrics.prompt_alignment.metric",
        "PROMPT_VERSION": "deepeval.metrics.prompt_alignment.prompts",
        "PromptAlignmentTemplate": "deepeval.metrics.prompt_alignment.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.prompt_alignment.questions",
        "PromptAlignmentQuestions": "deepeval.metrics.prompt_alignment.questions",
    },
)
