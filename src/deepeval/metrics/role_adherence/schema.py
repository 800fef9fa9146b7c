"""Judge replies of :class:`RoleAdherenceMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import ReasonReply


class OutOfCharacterResponseVerdict(BaseModel):
    """``{"index": int, "reason": str, "ai_message": str?}``: an assistant turn (its 0-based position in the
    conversation) that breaks the role; ``ai_message`` is filled in by the metric."""

    index: int
    reason: str
    ai_message: str | None = None


class OutOfCharacterResponseVerdicts(BaseModel):
    """``{"verdicts": [OutOfCharacterResponseVerdict, ...]}``: every assistant turn out of character (none: [])."""

    verdicts: list[OutOfCharacterResponseVerdict]


class RoleAdherenceScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["OutOfCharacterResponseVerdict", "OutOfCharacterResponseVerdicts", "RoleAdherenceScoreReason"]
