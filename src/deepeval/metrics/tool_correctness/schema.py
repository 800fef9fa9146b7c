"""The judge's reply for the tool-selection check (deepeval 4.3.1's class name: a custom model is handed it)."""

from __future__ import annotations

from pydantic import BaseModel


class ToolSelectionScore(BaseModel):
    score: float
    reason: str
