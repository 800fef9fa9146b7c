"""ConversationalGEval: a metric defined by the user's criteria or steps, over a whole conversation.

``from deepeval.metrics.conversational_g_eval import ConversationalGEval, ConversationalGEvalTemplate`` as in
deepeval 4.3.1; exports are imported on first use.
"""

from deepeval._lazy import lazy_exports

__all__ = ["PROMPT_VERSION", "ConversationalGEval", "ConversationalGEvalTemplate"]
__getattr__ = lazy_exports(
    __name__,
    {
        "ConversationalGEval": "deepeval.metrics.conversational_g_eval.metric",
        "ConversationalGEvalTemplate": "deepeval.metrics.conversational_g_eval.prompts",
        "PROMPT_VERSION": "deepeval.metrics.conversational_g_eval.prompts",
    },
)
