"""Contextual relevancy: how much of the retrieval context is relevant to the input."""

from deepeval.metrics.contextual_relevancy.metric import ContextualRelevancyMetric
from deepeval.metrics.contextual_relevancy.prompts import PROMPT_VERSION, ContextualRelevancyTemplate
from deepeval.metrics.contextual_relevancy.questions import QUESTION_SET_VERSION, ContextualRelevancyQuestions

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "ContextualRelevancyMetric",
    "ContextualRelevancyQuestions",
    "ContextualRelevancyTemplate",
]
