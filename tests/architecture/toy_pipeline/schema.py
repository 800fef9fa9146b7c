"""The toy's judge replies."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics.pipeline import BinaryVerdict, ReasonReply


class ToyClaims(BaseModel):
    claims: list[str]


class ToyVerdicts(BaseModel):
    verdicts: list[BinaryVerdict]


class ToyReason(ReasonReply):
    pass
