"""Judge replies for :class:`AnswerRelevancyMetric`."""

from deepeval.metrics._engine.extractor import StatementList as Statements
from deepeval.metrics._engine.schemas import ReasonReply as AnswerRelevancyReason
from deepeval.metrics._engine.schemas import TernaryVerdict as AnswerRelevancyVerdict
from deepeval.metrics._engine.schemas import TernaryVerdicts as Verdicts

__all__ = ["AnswerRelevancyReason", "AnswerRelevancyVerdict", "Statements", "Verdicts"]
