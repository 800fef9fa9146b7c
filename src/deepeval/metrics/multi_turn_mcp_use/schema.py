"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from pydantic import BaseModel


class ToolScore(BaseModel):
    score: float
    reason: str


class ArgsScore(BaseModel):
    score: float
    reason: str


class Reason(BaseModel):
    reason: str
