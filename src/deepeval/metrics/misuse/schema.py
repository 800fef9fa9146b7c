"""Judge replies of :class:`MisuseMetric`, under deepeval 4.3.1's class and field names (a custom model that branches
on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class Misuses(BaseModel):
    """``{"misuses": [str, ...]}``: the statements of the output that may fall outside the chatbot's domain."""

    misuses: list[str]


class MisuseVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one statement (yes: a misuse of the specialised chatbot)."""


class Verdicts(BaseModel):
    """``{"verdicts": [MisuseVerdict, ...]}``, one per statement, in order."""

    verdicts: list[MisuseVerdict]


class MisuseScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["MisuseScoreReason", "MisuseVerdict", "Misuses", "Verdicts"]
