"""Turn relevancy: are the assistant's replies relevant to the conversation so far (sliding windows over turns)?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "TurnRelevancyMetric",
    "TurnRelevancyQuestions",
    "TurnRelevancyTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "TurnRelevancyMetric": "deepeval.metrics.turn_relevancy.metric",
        "PROMPT_VERSION": "deepeval.metrics.turn_relevancy.prompts",
        "TurnRelevancyTemplate": "deepeval.metrics.turn_relevancy.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.turn_relevancy.questions",
        "TurnRelevancyQuestions": "deepeval.metrics.turn_relevancy.questions",
    },
)
