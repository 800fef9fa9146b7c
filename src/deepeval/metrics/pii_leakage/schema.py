"""Judge replies of :class:`PIILeakageMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class ExtractedPII(BaseModel):
    """``{"extracted_pii": [str, ...]}``: the statements of the output that may carry personal information."""

    extracted_pii: list[str]


class PIILeakageVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one statement (yes: it leaks personal information)."""


class Verdicts(BaseModel):
    """``{"verdicts": [PIILeakageVerdict, ...]}``, one per statement, in order."""

    verdicts: list[PIILeakageVerdict]


class PIILeakageScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["ExtractedPII", "PIILeakageScoreReason", "PIILeakageVerdict", "Verdicts"]
