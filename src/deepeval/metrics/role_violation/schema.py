"""Judge replies of :class:`RoleViolationMetric`, under deepeval 4.3.1's class and field names (a custom model that
branches on the schema it is handed sees the same classes as under deepeval)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class RoleViolations(BaseModel):
    """``{"role_violations": [str, ...]}``: the statements of the output that may break the assigned role."""

    role_violations: list[str]


class RoleViolationVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one statement (yes: it violates the role)."""


class Verdicts(BaseModel):
    """``{"verdicts": [RoleViolationVerdict, ...]}``, one per statement, in order."""

    verdicts: list[RoleViolationVerdict]


class RoleViolationScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["RoleViolationScoreReason", "RoleViolationVerdict", "RoleViolations", "Verdicts"]
