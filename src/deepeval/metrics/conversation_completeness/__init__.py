"""Conversation completeness: did the assistant satisfy what the user wanted from the conversation?

Exports are imported on first use, so reading the metric's ``declaration`` (the metric registry) stays light.
"""

from deepeval._lazy import lazy_exports

__all__ = [
    "PROMPT_VERSION",
    "QUESTION_SET_VERSION",
    "ConversationCompletenessMetric",
    "ConversationCompletenessQuestions",
    "ConversationCompletenessTemplate",
]
__getattr__ = lazy_exports(
    __name__,
    {
        "ConversationCompletenessMetric": "deepeval.metrics.conversation_completeness.metric",
        "PROMPT_VERSION": "deepeval.metrics.conversation_completeness.prompts",
        "ConversationCompletenessTemplate": "deepeval.metrics.conversation_completeness.prompts",
        "QUESTION_SET_VERSION": "deepeval.metrics.conversation_completeness.questions",
        "ConversationCompletenessQuestions": "deepeval.metrics.conversation_completeness.questions",
    },
)
