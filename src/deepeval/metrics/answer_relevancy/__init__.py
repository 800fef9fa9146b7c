"""Answer relevancy: how much of the output is relevant to the input."""

from deepeval.metrics.answer_relevancy.metric import AnswerRelevancyMetric
from deepeval.metrics.answer_relevancy.prompts import PROMPT_VERSION, AnswerRelevancyTemplate
from deepeval.metrics.answer_relevancy.questions import QUESTION_SET_VERSION, AnswerRelevancyQuestions

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "AnswerRelevancyMetric",
    "AnswerRelevancyQuestions",
    "AnswerRelevancyTemplate",
]
