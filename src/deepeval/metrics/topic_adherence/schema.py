"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class QAPair(BaseModel):
    question: str
    response: str


class QAPairs(BaseModel):
    qa_pairs: list[QAPair]


class RelevancyVerdict(BaseModel):
    verdict: Literal["TP", "TN", "FP", "FN"]
    reason: str


class TopicAdherenceReason(BaseModel):
    reason: str
