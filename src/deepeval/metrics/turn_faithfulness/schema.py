"""Judge replies of :class:`TurnFaithfulnessMetric`: the single-turn metric's classes, under the names deepeval 4.3.1's
``deepeval.metrics.turn_faithfulness.schema`` gives them (each window is judged with them; the final reason is
``FaithfulnessScoreReason``)."""

from deepeval.metrics.faithfulness.schema import (
    Claims,
    FaithfulnessScoreReason,
    FaithfulnessVerdict,
    Truths,
    Verdicts,
)

__all__ = ["Claims", "FaithfulnessScoreReason", "FaithfulnessVerdict", "Truths", "Verdicts"]
