"""Base classes of the judge replies shared by the metrics, and count checks for the structured-output layer.

Each metric's ``schema.py`` subclasses these under deepeval 4.3.1's class names (``Verdicts``,
``AnswerRelevancyVerdict``, ``ContextualRelevancyVerdicts``, ``KnowledgeRetentionVerdict``, ``*ScoreReason``), so a
custom model that branches on the schema it is handed (its class, or its ``__name__``) sees what it would see under
deepeval. Verdict strings are normalised on validation (``"Yes "``, ``"yes."``, ``"YES"`` -> ``"yes"``); an unknown word fails
validation, which makes :func:`deepeval.models.structured.a_generate_structured` re-ask the judge once.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, field_validator

from deepeval.metrics._engine.verdicts import Verdict, normalize_verdict
from deepeval.models.structured import ItemCount


class TernaryVerdict(BaseModel):
    """``{"reason": str?, "verdict": "yes" | "no" | "idk"}``; ``idk``/``borderline`` normalise to ``borderline``.

    The reason comes first (ours; deepeval lists the verdict first): a model that decodes in schema order writes its
    reason before it commits to the verdict, which measured better on a small model (bench/RESULTS.md)."""

    reason: str | None = None
    verdict: Verdict

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=True)


class BinaryVerdict(BaseModel):
    """``{"reason": str?, "verdict": "yes" | "no"}`` (reason first, as :class:`TernaryVerdict`)."""

    reason: str | None = None
    verdict: Verdict

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=False)


class StatementVerdict(BaseModel):
    """``{"statement": str, "reason": str?, "verdict": "yes" | "no"}``: a statement the judge extracted together with
    its verdict (one call splits a text and judges each piece). The statement is stripped."""

    statement: str
    reason: str | None = None
    verdict: Verdict

    @field_validator("statement", mode="before")
    @classmethod
    def _strip(cls, v: Any) -> Any:
        return v.strip() if isinstance(v, str) else v

    @field_validator("verdict", mode="before")
    @classmethod
    def _normalise(cls, v: Any) -> Verdict:
        return normalize_verdict(v, allow_borderline=False)


def non_blank_statements(reply: Any) -> None:
    """A ``check=`` for a list of :class:`StatementVerdict` (``reply.verdicts``): every statement has text.

    Raises:
        ValueError: a statement is blank (triggers the re-ask).
    """
    blank = [i for i, v in enumerate(reply.verdicts) if not v.statement]
    if blank:
        raise ValueError(
            f"verdicts {blank} have an empty statement; every verdict must quote the statement it judges"
        )


class ReasonReply(BaseModel):
    """``{"reason": str}``: the base of each metric's ``*ScoreReason``. The text is stripped (a reply cut short
    inside a sentence ends in a space)."""

    reason: str

    @field_validator("reason", mode="before")
    @classmethod
    def _strip(cls, v: Any) -> Any:
        return v.strip() if isinstance(v, str) else v


def one_verdict_each(expected: int) -> ItemCount:
    """A ``check=`` for ``a_generate_structured``: exactly ``expected`` verdicts, one per statement, in order. A
    wrong count gets the structured layer's targeted re-ask (and a grammar-constrained judge is held to the count).

    Raises (from the returned check):
        CountMismatch: the count differs (a ``ValueError``).
    """
    return ItemCount("verdicts", expected, item="verdict", unit="statement")
