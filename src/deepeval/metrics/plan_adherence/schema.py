"""The judge's replies (deepeval 4.3.1's class names: a custom model is handed them)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.plan_metric import AgentPlan, Task

__all__ = ["AgentPlan", "PlanAdherenceScore", "Task"]


class PlanAdherenceScore(BaseModel):
    score: float
    reason: str
