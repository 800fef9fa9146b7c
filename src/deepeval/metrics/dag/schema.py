"""The replies a DAG's nodes ask an LLM judge for (deepeval 4.3.1's class names)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, create_model


class MetricScoreReason(BaseModel):
    reason: str


class TaskNodeOutput(BaseModel):
    output: str | list[str] | dict[str, str]


class BinaryJudgementVerdict(BaseModel):
    verdict: bool
    reason: str


class NonBinaryJudgementVerdict(BaseModel):
    verdict: str
    reason: str


def choice_verdict_schema(options: list[str]) -> type[BaseModel]:
    """``NonBinaryJudgementVerdict`` whose verdict must be one of ``options`` (the judge cannot invent one)."""
    model: type[BaseModel] = create_model(
        "NonBinaryJudgementVerdict",
        verdict=(Literal[tuple(options)], ...),  # type: ignore[valid-type,arg-type]
        reason=(str, ...),
    )
    return model
