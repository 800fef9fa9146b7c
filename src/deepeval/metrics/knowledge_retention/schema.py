"""Judge replies for :class:`KnowledgeRetentionMetric`."""

from deepeval.metrics._engine.extractor import FactList as Knowledge
from deepeval.metrics._engine.schemas import BinaryVerdict as KnowledgeRetentionVerdict
from deepeval.metrics._engine.schemas import ReasonReply as KnowledgeRetentionReason

__all__ = ["Knowledge", "KnowledgeRetentionReason", "KnowledgeRetentionVerdict"]
