"""Judge replies of :class:`KnowledgeRetentionMetric`, under deepeval 4.3.1's class and field names (a custom model
that branches on the schema it is handed sees the same classes as under deepeval). Ours: ``Knowledge`` also takes an
optional ``supersedes`` list (the earlier facts a user turn corrects); a reply without it is valid."""

from __future__ import annotations

from deepeval.metrics._engine.extractor import Knowledge
from deepeval.metrics._engine.schemas import BinaryVerdict, ReasonReply


class KnowledgeRetentionVerdict(BinaryVerdict):
    """``{"reason": str?, "verdict": "yes" | "no"}`` for one assistant turn; ``yes`` = knowledge attrition."""


class KnowledgeRetentionScoreReason(ReasonReply):
    """``{"reason": str}``: why the score is what it is."""


__all__ = ["Knowledge", "KnowledgeRetentionScoreReason", "KnowledgeRetentionVerdict"]
