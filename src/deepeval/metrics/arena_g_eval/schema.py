"""The replies ArenaGEval asks an LLM judge for (deepeval 4.3.1's class names)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics.g_eval.schema import Steps


class Winner(BaseModel):
    winner: str
    reason: str


class RewrittenReason(BaseModel):
    rewritten_reason: str


__all__ = ["RewrittenReason", "Steps", "Winner"]
