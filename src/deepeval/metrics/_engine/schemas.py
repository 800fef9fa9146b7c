"""Pydantic schemas of judge replies shared by the metrics, and count checks for the structured-output layer.

Verdict strings are normalised on validation (``"Yes "``, ``"yes."``, ``"YES"`` -> ``"yes"``); an unknown word fails
validation, which makes :func:`deepeval.models.structured.a_generate_structured` re-ask the judge once.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, field_validator

from deepeval.metrics._engine.verdicts import Verdict, normalize_verdict
from deepeval.models.structured import ItemCount


class TernaryVerdict(BaseModel):
    """``{"verdict": "yes" | "no" | "idk", "reason": str?}``; ``idk``/``borderline`` normalise to ``borderline``."""

    verdict: Verdict
    reason: str | None = None

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=True)


class BinaryVerdict(BaseModel):
    """``{"verdict": "yes" | "no", "reason": str?}``."""

    verdict: Verdict
    reason: str | None = None

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=False)


class TernaryVerdicts(BaseModel):
    """``{"verdicts": [TernaryVerdict, ...]}``, one per statement."""

    verdicts: list[TernaryVerdict]


class BinaryVerdicts(BaseModel):
    """``{"verdicts": [BinaryVerdict, ...]}``, one per statement."""

    verdicts: list[BinaryVerdict]


class StatementVerdict(BaseModel):
    """``{"statement": str, "verdict": "yes" | "no", "reason": str?}``: a statement the judge extracted together with
    its verdict (one call splits a text and judges each piece). The statement is stripped."""

    statement: str
    verdict: Verdict
    reason: str | None = None

    @field_validator("statement", mode="before")
    @classmethod
    def _strip(cls, v: Any) -> Any:
        return v.strip() if isinstance(v, str) else v

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=False)


class StatementVerdicts(BaseModel):
    """``{"verdicts": [StatementVerdict, ...]}``: every statement of one text with its verdict, in text order; an
    empty list when the text states nothing."""

    verdicts: list[StatementVerdict]


def non_blank_statements(reply: Any) -> None:
    """A ``check=`` for :class:`StatementVerdicts`: every statement has text.

    Raises:
        ValueError: a statement is blank (triggers the re-ask).
    """
    blank = [i for i, v in enumerate(reply.verdicts) if not v.statement]
    if blank:
        raise ValueError(
            f"verdicts {blank} have an empty statement; every verdict must quote the statement it judges"
        )


class ReasonReply(BaseModel):
    """``{"reason": str}``."""

    reason: str


def one_verdict_each(expected: int) -> ItemCount:
    """A ``check=`` for ``a_generate_structured``: exactly ``expected`` verdicts, one per statement, in order. A
    wrong count gets the structured layer's targeted re-ask (and a grammar-constrained judge is held to the count).

    Raises (from the returned check):
        CountMismatch: the count differs (a ``ValueError``).
    """
    return ItemCount("verdicts", expected, item="verdict", unit="statement")
