"""Judge replies of :class:`ConversationCompletenessMetric`, under deepeval 4.3.1's class and field names (a custom
model that branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class UserIntentions(BaseModel):
    """``{"intentions": [str, ...]}``: what the user wanted from the conversation."""

    intentions: list[str]


class ConversationCompletenessVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one intention (yes: the assistant satisfied it)."""


class ConversationCompletenessScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["ConversationCompletenessScoreReason", "ConversationCompletenessVerdict", "UserIntentions"]
