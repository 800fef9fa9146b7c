"""Judge replies of :class:`TurnContextualRelevancyMetric`: the single-turn metric's classes, under the names deepeval 4.3.1's
``deepeval.metrics.turn_contextual_relevancy.schema`` gives them (each window is judged with them; the final reason is
``ContextualRelevancyScoreReason``)."""

from deepeval.metrics.contextual_relevancy.schema import (
    ContextualRelevancyScoreReason,
    ContextualRelevancyVerdict,
    ContextualRelevancyVerdicts,
)

__all__ = ["ContextualRelevancyScoreReason", "ContextualRelevancyVerdict", "ContextualRelevancyVerdicts"]
