"""The replies GEval asks an LLM judge for (deepeval 4.3.1's class names: a custom model is handed these)."""

from __future__ import annotations

from pydantic import BaseModel


class Steps(BaseModel):
    """The evaluation steps written from the criteria."""

    steps: list[str]


class ReasonScore(BaseModel):
    """The score on the metric's range and why."""

    reason: str
    score: float


class Reason(BaseModel):
    """The reason written for a score System One gave (hybrid mode)."""

    reason: str
