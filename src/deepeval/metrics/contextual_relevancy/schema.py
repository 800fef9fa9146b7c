"""Judge replies for :class:`ContextualRelevancyMetric`."""

from deepeval.metrics._engine.extractor import StatementList as Statements
from deepeval.metrics._engine.schemas import BinaryVerdict as ContextualRelevancyVerdict
from deepeval.metrics._engine.schemas import BinaryVerdicts as Verdicts
from deepeval.metrics._engine.schemas import ReasonReply as ContextualRelevancyReason

__all__ = ["ContextualRelevancyReason", "ContextualRelevancyVerdict", "Statements", "Verdicts"]
