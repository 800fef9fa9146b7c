"""Contextual relevancy: how much of the retrieval context is relevant to the input.

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "ContextualRelevancyMetric",
    "ContextualRelevancyQuestions",
    "ContextualRelevancyTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "ContextualRelevancyMetric": "deepeval.metrics.contextual_relevancy.metric",
        "PROMPT_VERSION": "deepeval.metrics.contextual_relevancy.prompts",
        "ContextualRelevancyTemplate": "deepeval.metrics.contextual_relevancy.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.contextual_relevancy.questions",
        "ContextualRelevancyQuestions": "deepeval.metrics.contextual_relevancy.questions",
    },
)
