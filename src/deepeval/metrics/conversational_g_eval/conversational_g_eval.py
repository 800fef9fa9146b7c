"""deepeval 4.3.1's module path ``deepeval.metrics.conversational_g_eval.conversational_g_eval``."""

from deepeval.metrics.conversational_g_eval.metric import ConversationalGEval
from deepeval.metrics.conversational_g_eval.prompts import ConversationalGEvalTemplate

__all__ = ["ConversationalGEval", "ConversationalGEvalTemplate"]
