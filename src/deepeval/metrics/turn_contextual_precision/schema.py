"""Judge replies of :class:`TurnContextualPrecisionMetric`: the single-turn metric's classes, under the names deepeval 4.3.1's
``deepeval.metrics.turn_contextual_precision.schema`` gives them (each window is judged with them; the final reason is
``ContextualPrecisionScoreReason``)."""

from deepeval.metrics.contextual_precision.schema import (
    ContextualPrecisionScoreReason,
    ContextualPrecisionVerdict,
    Verdicts,
)

__all__ = ["ContextualPrecisionScoreReason", "ContextualPrecisionVerdict", "Verdicts"]
