"""Judge replies of :class:`HallucinationMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval: ``Verdicts``, then
``HallucinationScoreReason``)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class HallucinationVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one context document (yes: the output agrees with it; no:
    the output contradicts it)."""


class Verdicts(BaseModel):
    """``{"verdicts": [HallucinationVerdict, ...]}``, one per context document, in order."""

    verdicts: list[HallucinationVerdict]


class HallucinationScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["HallucinationScoreReason", "HallucinationVerdict", "Verdicts"]
