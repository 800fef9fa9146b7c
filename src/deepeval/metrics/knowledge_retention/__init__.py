"""Knowledge retention: does the assistant keep the facts the user stated?"""

from deepeval.metrics.knowledge_retention.metric import KnowledgeRetentionMetric
from deepeval.metrics.knowledge_retention.prompts import PROMPT_VERSION, KnowledgeRetentionTemplate
from deepeval.metrics.knowledge_retention.questions import QUESTION_SET_VERSION, KnowledgeRetentionQuestions

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "KnowledgeRetentionMetric",
    "KnowledgeRetentionQuestions",
    "KnowledgeRetentionTemplate",
]
