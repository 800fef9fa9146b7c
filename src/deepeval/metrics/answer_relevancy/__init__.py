"""Answer relevancy: how much of the output is relevant to the input.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "AnswerRelevancyMetric", "AnswerRelevancyTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "AnswerRelevancyMetric": "deepeval.metrics.answer_relevancy.metric",
        "PROMPT_VERSION": "deepeval.metrics.answer_relevancy.prompts",
        "AnswerRelevancyTemplate": "deepeval.metrics.answer_relevancy.prompts",
    },
)
