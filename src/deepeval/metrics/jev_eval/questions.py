"""The three question types a JevEval is built from (deepeval 4.3.1's names, fields and checks; our code).

Each is sent to the System One judge as its typed question and its answer maps onto a value in [0, 1]
(:mod:`deepeval.metrics.jev_eval.outcomes`):

* ``Noul(statement, true=None, false=None, weight=1)``: a proposition about the test case; ``v = P(true)``;
* ``Score(question, levels, weight=1)``: 2 to 10 distinct ordered levels, worst first;
  ``v = expected level / (levels - 1)``;
* ``Choice(question, options, weight=1)``: option name -> credit in [0, 1], or None for "the question does not
  apply"; ``v`` = the credit expected over the applicable options (the judge sees option names only).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from deepeval.models.system_one.schema import ChoiceQuestion, NoulQuestion, ScoreQuestion, SystemOneQuestion

MIN_SCORE_LEVELS = 2
MAX_SCORE_LEVELS = 10


def _non_blank(what: str, value: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} cannot be empty.")
    return value


class _Question(BaseModel):
    weight: float = Field(default=1.0, gt=0)

    @property
    def text(self) -> str:
        raise NotImplementedError

    def to_system_one(self) -> SystemOneQuestion:
        raise NotImplementedError


class Noul(_Question):
    """A proposition the System One judge finds true or false about the test case."""

    type: Literal["noul"] = "noul"
    statement: str
    true: Any | None = None
    false: Any | None = None

    def __init__(self, statement: str | None = None, **data: Any) -> None:
        if statement is not None:
            data["statement"] = statement
        super().__init__(**data)

    @field_validator("statement")
    @classmethod
    def _statement(cls, value: str) -> str:
        return _non_blank("Noul statement", value)

    @property
    def text(self) -> str:
        return self.statement

    def to_system_one(self) -> NoulQuestion:
        return NoulQuestion(
            instructions=self.statement,
            true=None if self.true is None else str(self.true),
            false=None if self.false is None else str(self.false),
        )


class Score(_Question):
    """A holistic judgement over ordered descriptive levels, worst first."""

    type: Literal["score"] = "score"
    question: str
    levels: list[str]

    def __init__(self, question: str | None = None, **data: Any) -> None:
        if question is not None:
            data["question"] = question
        super().__init__(**data)

    @field_validator("question")
    @classmethod
    def _question(cls, value: str) -> str:
        return _non_blank("Score question", value)

    @field_validator("levels")
    @classmethod
    def _levels(cls, levels: list[str]) -> list[str]:
        if not MIN_SCORE_LEVELS <= len(levels) <= MAX_SCORE_LEVELS:
            raise ValueError(
                f"Score needs between {MIN_SCORE_LEVELS} and {MAX_SCORE_LEVELS} levels; got {len(levels)}."
            )
        if any(not str(level).strip() for level in levels):
            raise ValueError("Score levels cannot be empty.")
        if len(set(levels)) != len(levels):
            raise ValueError("Score levels must be unique.")
        return levels

    @property
    def text(self) -> str:
        return self.question

    def to_system_one(self) -> ScoreQuestion:
        return ScoreQuestion(instructions=self.question, levels=list(self.levels))


class Choice(_Question):
    """A selection from a closed set: option name -> credit in [0, 1], or None for "does not apply"."""

    type: Literal["choice"] = "choice"
    question: str
    options: dict[str, float | None]

    def __init__(self, question: str | None = None, **data: Any) -> None:
        if question is not None:
            data["question"] = question
        super().__init__(**data)

    @field_validator("question")
    @classmethod
    def _question(cls, value: str) -> str:
        return _non_blank("Choice question", value)

    @field_validator("options")
    @classmethod
    def _options(cls, options: dict[str, float | None]) -> dict[str, float | None]:
        if len(options) < 2:
            raise ValueError("Choice needs at least 2 options.")
        if any(not name.strip() for name in options):
            raise ValueError("Choice option names cannot be empty.")
        for name, credit in options.items():
            if credit is not None and not 0.0 <= float(credit) <= 1.0:
                raise ValueError(
                    f"Choice option '{name}' has credit {credit}; credits must be between 0 and 1, or None for "
                    "not applicable."
                )
        if all(credit is None for credit in options.values()):
            raise ValueError(
                "Choice needs at least one option with a credit; every option is None (not applicable)."
            )
        return options

    @property
    def text(self) -> str:
        return self.question

    @property
    def applicable_options(self) -> dict[str, float]:
        return {name: float(c) for name, c in self.options.items() if c is not None}

    @property
    def not_applicable_options(self) -> list[str]:
        return [name for name, c in self.options.items() if c is None]

    def to_system_one(self) -> ChoiceQuestion:
        return ChoiceQuestion(instructions=self.question, options=dict.fromkeys(self.options))


JevQuestion = Noul | Score | Choice


class QuestionOutcome(BaseModel):
    """One entry of ``metric.score_breakdown`` (a list, as deepeval 4.3.1 has it)."""

    question: str
    type: Literal["noul", "score", "choice"]
    weight: float
    value: float | None
    applicable: bool
    probabilities: dict[str, float]
    confidence: float | None = None
    #: strict mode only: whether this question met the strict bar
    passed: bool | None = None
