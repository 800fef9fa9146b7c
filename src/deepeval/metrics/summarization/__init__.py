"""Summarization: whether a summary agrees with its original text and covers what matters in it.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "QUESTION_SET_VERSION", "SummarizationMetric", "SummarizationTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "SummarizationMetric": "deepeval.metrics.summarization.metric",
        "PROMPT_VERSION": "deepeval.metrics.summarization.prompts",
        "SummarizationTemplate": "deepeval.metrics.summarization.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.summarization.questions",
    },
)
