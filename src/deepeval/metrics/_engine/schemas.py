"""Pydantic schemas of judge replies shared by the metrics, and count checks for the structured-output layer.

Verdict strings are normalised on validation (``"Yes "``, ``"yes."``, ``"YES"`` -> ``"yes"``); an unknown word fails
validation, which makes :func:`deepeval.models.structured.a_generate_structured` re-ask the judge once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, field_validator

from deepeval.metrics._engine.verdicts import Verdict, normalize_verdict


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


class ReasonReply(BaseModel):
    """``{"reason": str}``."""

    reason: str


def one_verdict_each(expected: int) -> Callable[[Any], None]:
    """A ``check=`` for ``a_generate_structured``: exactly ``expected`` verdicts.

    Raises (from the returned check):
        ValueError: the count differs (triggers the re-ask).
    """

    def check(reply: Any) -> None:
        got = len(reply.verdicts)
        if got != expected:
            raise ValueError(
                f"expected exactly {expected} verdicts, one per statement and in order, got {got}"
            )

    return check
