"""Judge replies of :class:`ContextualRelevancyMetric`, under deepeval 4.3.1's class and field names (a custom model
that branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import ReasonReply, StatementVerdict


class ContextualRelevancyVerdict(StatementVerdict):
    """``{"statement": str, "reason": str?, "verdict": "yes" | "no"}``: one statement of a retrieval-context node
    with its verdict."""


class ContextualRelevancyVerdicts(BaseModel):
    """``{"verdicts": [ContextualRelevancyVerdict, ...]}``: the statements of one node with their verdicts, in
    order."""

    verdicts: list[ContextualRelevancyVerdict]


class ContextualRelevancyScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["ContextualRelevancyScoreReason", "ContextualRelevancyVerdict", "ContextualRelevancyVerdicts"]
