"""System One question and answer types (noul = yes/no, choice, score).

Questions carry two optional fields of ours that never go over the TypeSafe wire: ``kind`` (a question-kind id from
:mod:`deepeval.models.system_one.kinds`, so local judges know what is being asked) and ``data`` (structured fields
for that kind, e.g. ``{"input": ..., "statement": ...}``). Remote models read ``instructions`` (which must be
self-contained) and the request ``state``.

Question text (``instructions``, noul ``true``/``false``, choice option descriptions, score levels) may be any JSON
value, as deepeval 4.3.1 and the TypeSafe API take it: a string, or an object or array (e.g. instructions that put
the question in one field and the data it refers to in others). Local judges read such a value as its JSON text
(:func:`as_text`).

Confidence (REFERENCE §2): a noul answer with P(yes)=p has confidence ``|2p - 1|``; choice and score answers carry
the model's confidence (for local models: ``(p_max - 1/n) / (1 - 1/n)``, 0 for a uniform distribution, 1 for a
one-hot one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


def as_text(value: Any) -> str:
    """Question text as a local judge reads it: a string as it is, any other JSON value as its JSON text."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def legend_levels(legend: Any) -> list[str] | None:
    """A score answer's ``legend`` as level texts, worst first: the object keyed ``"0"``, ``"1"``, ... that the
    TypeSafe API sends (ordered by the key's number), or a list; None for anything else (or an object whose keys
    are not level numbers)."""
    if isinstance(legend, list):
        return [as_text(x) for x in legend]
    if not isinstance(legend, dict):
        return None
    try:
        ordered = sorted((int(k), v) for k, v in legend.items())
    except (TypeError, ValueError):
        return None
    return [as_text(v) for _, v in ordered]


class _Question(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    #: any JSON value (see the module docstring)
    instructions: Any
    kind: str | None = None
    data: dict[str, Any] | None = None


class NoulQuestion(_Question):
    """A yes/no question. ``true``/``false`` optionally describe what each answer means (any JSON value); when one
    is described, both keys go over the wire (the other as ``null``)."""

    true: Any = None
    false: Any = None


class ChoiceQuestion(_Question):
    """Pick one of ``options`` (name -> description or ``None``); at least 2 options.

    Raises:
        pydantic.ValidationError: fewer than 2 options.
    """

    options: dict[str, Any]

    @field_validator("options")
    @classmethod
    def _two_or_more(cls, v: dict[str, Any]) -> dict[str, Any]:
        if len(v) < 2:
            raise ValueError("a choice question needs at least 2 options")
        return v


class ScoreQuestion(_Question):
    """A graded question; ``levels`` (any JSON values) go from worst (index 0) to best, 2 to 10 of them.

    Raises:
        pydantic.ValidationError: fewer than 2 or more than 10 levels.
    """

    levels: list[Any]

    @field_validator("levels")
    @classmethod
    def _level_count(cls, v: list[Any]) -> list[Any]:
        if not 2 <= len(v) <= 10:
            raise ValueError(f"a score question needs 2 to 10 levels, got {len(v)}")
        return v


SystemOneQuestion = NoulQuestion | ChoiceQuestion | ScoreQuestion
Questions = Mapping[str, SystemOneQuestion]


def distribution_confidence(probabilities: Mapping[Any, float]) -> float:
    """``(p_max - 1/n) / (1 - 1/n)`` clipped to [0, 1]: 0 for uniform, 1 for one-hot."""
    n = len(probabilities)
    if n < 2:
        return 1.0
    p_max = max(probabilities.values())
    return max(0.0, min(1.0, (p_max - 1.0 / n) / (1.0 - 1.0 / n)))


class NoulAnswer(BaseModel):
    """``probability`` = P(yes) in [0, 1]; ``confidence`` = |2p - 1|."""

    model_config = ConfigDict(frozen=True)

    probability: float = Field(ge=0.0, le=1.0)

    @property
    def confidence(self) -> float:
        return abs(2.0 * self.probability - 1.0)

    @property
    def answer(self) -> bool:
        return self.probability >= 0.5


class ChoiceAnswer(BaseModel):
    """The chosen option, the probability of every option, and a confidence in [0, 1]."""

    model_config = ConfigDict(frozen=True)

    choice: str
    probabilities: dict[str, float] = Field(default_factory=dict)
    confidence: float = Field(ge=0.0, le=1.0)


class ScoreAnswer(BaseModel):
    """``score`` = expected level index (0 = worst); ``probabilities`` per level index; confidence in [0, 1]."""

    model_config = ConfigDict(frozen=True)

    score: float = Field(ge=0.0)
    probabilities: dict[int, float] = Field(default_factory=dict)
    confidence: float = Field(ge=0.0, le=1.0)
    #: the level texts, worst first (an object legend ``{"0": ..., "1": ...}`` from the wire is read into this list)
    legend: list[str] | None = None

    @field_validator("legend", mode="before")
    @classmethod
    def _legend_levels(cls, v: Any) -> Any:
        return legend_levels(v) if isinstance(v, (dict, list)) else v

    @property
    def top_level(self) -> int:
        """The most probable level index (the rounded expected level when no distribution is given)."""
        if self.probabilities:
            return max(self.probabilities, key=lambda k: self.probabilities[k])
        return round(self.score)


SystemOneAnswer = NoulAnswer | ChoiceAnswer | ScoreAnswer


class SystemOneAnswers(BaseModel):
    """Answers of one System One request, by question id and type.

    ``model`` is the resolved model version the server reported (None when unknown); tokens are the request's usage.
    A question id absent from every dict means the model gave no answer for it: a failed decision.
    Unknown keys are rejected, so a plain ``{id: probability}`` dict is not mistaken for an empty answer set.
    """

    model_config = ConfigDict(extra="forbid")

    nouls: dict[str, NoulAnswer] = Field(default_factory=dict)
    choices: dict[str, ChoiceAnswer] = Field(default_factory=dict)
    scores: dict[str, ScoreAnswer] = Field(default_factory=dict)
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    #: ours: which stage of a cascading judge gave each answer (question id -> ``encoder``, ``reader`` or
    #: ``unsure`` when no stage was sure); empty for a single-stage judge
    tiers: dict[str, str] = Field(default_factory=dict)
    #: ours: each stage's own P(yes) for the questions a cascading judge passed on (question id -> {stage: P})
    stages: dict[str, dict[str, float]] = Field(default_factory=dict)
    #: ours: questions left unanswered because the server refused the request that held them (as too large),
    #: question id -> the error; the other requests of the call were answered
    refused: dict[str, str] = Field(default_factory=dict)
    #: ours: the server's ids of the requests that gave these answers (TypeSafe's ``x-typesafe-request-id``)
    request_ids: list[str] = Field(default_factory=list)

    def get(self, question_id: str) -> SystemOneAnswer | None:
        return self.nouls.get(question_id) or self.choices.get(question_id) or self.scores.get(question_id)

    def missing(self, questions: Mapping[str, Any]) -> list[str]:
        """Ids in ``questions`` that have no answer."""
        return [qid for qid in questions if self.get(qid) is None]

    @model_validator(mode="after")
    def _disjoint(self) -> SystemOneAnswers:
        ids = [*self.nouls, *self.choices, *self.scores]
        if len(ids) != len(set(ids)):
            raise ValueError("a question id appears under more than one answer type")
        return self
