"""Knowledge retention: does the assistant keep the facts the user stated?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "KnowledgeRetentionMetric",
    "KnowledgeRetentionQuestions",
    "KnowledgeRetentionTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "KnowledgeRetentionMetric": "deepeval.metrics.knowledge_retention.metric",
        "PROMPT_VERSION": "deepeval.metrics.knowledge_retention.prompts",
        "KnowledgeRetentionTemplate": "deepeval.metrics.knowledge_retention.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.knowledge_retention.questions",
        "KnowledgeRetentionQuestions": "deepeval.metrics.knowledge_retention.questions",
    },
)
