"""Judge replies of :class:`TurnContextualRecallMetric`: the single-turn metric's classes, under the names deepeval 4.3.1's
``deepeval.metrics.turn_contextual_recall.schema`` gives them (each window is judged with them; the final reason is
``ContextualRecallScoreReason``)."""

from deepeval.metrics.contextual_recall.schema import (
    ContextualRecallScoreReason,
    ContextualRecallVerdict,
    Verdicts,
)

__all__ = ["ContextualRecallScoreReason", "ContextualRecallVerdict", "Verdicts"]
