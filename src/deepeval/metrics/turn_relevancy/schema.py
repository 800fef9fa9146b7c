"""Judge replies of :class:`TurnRelevancyMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class TurnRelevancyVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for the last assistant turn of one window (yes: relevant)."""


class TurnRelevancyScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["TurnRelevancyScoreReason", "TurnRelevancyVerdict"]
