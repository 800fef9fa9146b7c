"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TaskAndOutcome(BaseModel):
    task: str
    outcome: str


class TaskCompletionVerdict(BaseModel):
    verdict: float
    reason: str | None = Field(default=None)
