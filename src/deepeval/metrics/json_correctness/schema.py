"""Judge reply of :class:`JsonCorrectnessMetric`'s reason call, under deepeval 4.3.1's class and field names."""

from __future__ import annotations

from deepeval.metrics._engine.schemas import ReasonReply


class JsonCorrectnessScoreReason(ReasonReply):
    """``{"reason": str}``: why the output does not validate against the expected schema."""


__all__ = ["JsonCorrectnessScoreReason"]
