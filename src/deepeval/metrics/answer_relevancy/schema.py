"""Judge replies of :class:`AnswerRelevancyMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.extractor import Statements
from deepeval.metrics._engine.schemas import ReasonReply, TernaryVerdict


class AnswerRelevancyVerdict(TernaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no" | "idk"}`` for one statement (``idk``/``borderline`` are read as
    ``borderline``)."""


class Verdicts(BaseModel):
    """``{"verdicts": [AnswerRelevancyVerdict, ...]}``, one per statement, in order."""

    verdicts: list[AnswerRelevancyVerdict]


class AnswerRelevancyScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["AnswerRelevancyScoreReason", "AnswerRelevancyVerdict", "Statements", "Verdicts"]
