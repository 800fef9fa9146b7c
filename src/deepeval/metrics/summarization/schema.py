"""Judge replies of :class:`SummarizationMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval: ``Truths`` and ``Claims`` (faithfulness'
classes, as 4.3.1 borrows them), ``Questions``, ``Answers``, ``Verdicts`` and ``SummarizationScoreReason``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, field_validator

from deepeval.metrics._engine.schemas import ReasonReply, TernaryVerdict
from deepeval.metrics._engine.verdicts import normalize_verdict
from deepeval.metrics.faithfulness.schema import Claims, Truths


class SummarizationAlignmentVerdict(TernaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no" | "borderline"}`` for one claim of the summary (yes: the original
    text states it; no: it contradicts it; borderline: the original does not say it). ``idk`` reads as
    borderline."""


class Verdicts(BaseModel):
    """``{"verdicts": [SummarizationAlignmentVerdict, ...]}``, one per claim of the summary, in order."""

    verdicts: list[SummarizationAlignmentVerdict]


class Questions(BaseModel):
    """``{"questions": [str, ...]}``: closed questions the original text answers with yes."""

    questions: list[str]


class Answers(BaseModel):
    """``{"answers": ["yes" | "no", ...]}``: per question, whether the text holds enough to answer it. Answers are
    normalised (``"Yes."`` -> ``"yes"``); any other word fails validation, which re-asks the judge."""

    answers: list[str]

    @field_validator("answers", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [normalize_verdict(a, allow_borderline=False) for a in v]
        return v


class SummarizationScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = [
    "Answers",
    "Claims",
    "Questions",
    "SummarizationAlignmentVerdict",
    "SummarizationScoreReason",
    "Truths",
    "Verdicts",
]
