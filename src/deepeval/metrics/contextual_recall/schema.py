"""Judge replies of :class:`ContextualRecallMetric`, under deepeval 4.3.1's class and field names (a custom model
that branches on the schema it is handed sees the same classes as under deepeval: ``Verdicts``, then
``ContextualRecallScoreReason``)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class ContextualRecallVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one sentence of the expected output (yes: it can be
    attributed to the retrieval context)."""


class Verdicts(BaseModel):
    """``{"verdicts": [ContextualRecallVerdict, ...]}``, one per sentence of the expected output, in order."""

    verdicts: list[ContextualRecallVerdict]


class ContextualRecallScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["ContextualRecallScoreReason", "ContextualRecallVerdict", "Verdicts"]
