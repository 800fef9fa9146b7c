"""Judge replies of :class:`ContextualPrecisionMetric`, under deepeval 4.3.1's class and field names (a custom model
that branches on the schema it is handed sees the same classes as under deepeval: ``Verdicts``, then
``ContextualPrecisionScoreReason``)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class ContextualPrecisionVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one retrieval-context node (yes: useful for arriving at the
    expected output)."""


class Verdicts(BaseModel):
    """``{"verdicts": [ContextualPrecisionVerdict, ...]}``, one per node, in rank order."""

    verdicts: list[ContextualPrecisionVerdict]


class ContextualPrecisionScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["ContextualPrecisionScoreReason", "ContextualPrecisionVerdict", "Verdicts"]
