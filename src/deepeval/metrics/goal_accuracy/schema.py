"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from pydantic import BaseModel


class GoalSteps(BaseModel):
    user_goal: str
    steps_taken: list[str]


class GoalScore(BaseModel):
    score: float
    reason: str


class PlanScore(BaseModel):
    score: float
    reason: str


class GoalAccuracyReason(BaseModel):
    reason: str
