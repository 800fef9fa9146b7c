"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class ArgumentCorrectnessVerdict(BaseModel):
    verdict: Literal["yes", "no"]
    reason: str | None = Field(default=None)


class Verdicts(BaseModel):
    verdicts: list[ArgumentCorrectnessVerdict]


class ArgumentCorrectnessScoreReason(BaseModel):
    reason: str
