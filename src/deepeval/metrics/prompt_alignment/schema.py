"""Judge replies of :class:`PromptAlignmentMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class PromptAlignmentVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one instruction (yes: the output follows it)."""


class Verdicts(BaseModel):
    """``{"verdicts": [PromptAlignmentVerdict, ...]}``, one per prompt instruction, in order."""

    verdicts: list[PromptAlignmentVerdict]


class PromptAlignmentScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["PromptAlignmentScoreReason", "PromptAlignmentVerdict", "Verdicts"]
