"""Judge replies of :class:`NonAdviceMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class Advices(BaseModel):
    """``{"advices": [str, ...]}``: the statements of the output that may give advice of the watched types."""

    advices: list[str]


class NonAdviceVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one statement (yes: it gives advice it should not)."""


class Verdicts(BaseModel):
    """``{"verdicts": [NonAdviceVerdict, ...]}``, one per statement, in order."""

    verdicts: list[NonAdviceVerdict]


class NonAdviceScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["Advices", "NonAdviceScoreReason", "NonAdviceVerdict", "Verdicts"]
