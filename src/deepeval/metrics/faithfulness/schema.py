"""Judge replies of :class:`FaithfulnessMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import ReasonReply, TernaryVerdict


class FaithfulnessVerdict(TernaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no" | "idk"}`` for one claim (``idk`` is read as ``borderline``)."""


class Verdicts(BaseModel):
    """``{"verdicts": [FaithfulnessVerdict, ...]}``, one per claim, in order."""

    verdicts: list[FaithfulnessVerdict]


class Truths(BaseModel):
    """``{"truths": [str, ...]}``: the facts the retrieval context states."""

    truths: list[str]


class Claims(BaseModel):
    """``{"claims": [str, ...]}``: the claims the actual output makes."""

    claims: list[str]


class FaithfulnessScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["Claims", "FaithfulnessScoreReason", "FaithfulnessVerdict", "Truths", "Verdicts"]
