"""The replies GEval asks an LLM judge for (deepeval 4.3.1's class names: a custom model is handed these)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, field_validator


class Steps(BaseModel):
    """The evaluation steps written from the criteria."""

    steps: list[str]


class ReasonScore(BaseModel):
    """The score on the metric's range and why."""

    reason: str
    score: float

    @field_validator("score", mode="before")
    @classmethod
    def _not_a_boolean(cls, v: Any) -> Any:
        # pydantic reads JSON true as 1.0: a judge that answers true/false gave no score (outside attack 5, L15)
        if isinstance(v, bool):
            raise ValueError("the score must be a number, not true or false")
        return v


class Reason(BaseModel):
    """The reason written for a score System One gave (hybrid mode)."""

    reason: str
