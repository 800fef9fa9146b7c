"""ConversationalJevEval: JevEval over a conversation (``from deepeval.metrics.conversational_jev_eval import
ConversationalJevEval`` as in deepeval 4.3.1); imported on first use."""

from deepeval._lazy import lazy_exports

__all__ = ["ConversationalJevEval"]
__getattr__ = lazy_exports(
    __name__, {"ConversationalJevEval": "deepeval.metrics.conversational_jev_eval.metric"}
)
