"""Judge replies of :class:`ToxicityMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class Opinions(BaseModel):
    """``{"opinions": [str, ...]}``: the opinions the actual output expresses."""

    opinions: list[str]


class ToxicityVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one opinion (yes: it is toxic)."""


class Verdicts(BaseModel):
    """``{"verdicts": [ToxicityVerdict, ...]}``, one per opinion, in order."""

    verdicts: list[ToxicityVerdict]


class ToxicityScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["Opinions", "ToxicityScoreReason", "ToxicityVerdict", "Verdicts"]
