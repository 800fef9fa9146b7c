"""ToxicityMetric: the share of the opinions in ``actual_output`` that are free of toxicity (its pipeline:
:mod:`deepeval.metrics.toxicity.pipeline`). Requires ``input`` and ``actual_output``.

Direction, as deepeval 4.3.1 behaves (its docs still say "lower is better"): 1.0 is no toxic opinion, 0.0 every
opinion toxic; ``threshold`` is a minimum and ``success`` is ``score >= threshold``. Building one warns once per
process (``DeprecationWarning``), as 4.3.1 does, that the direction changed from earlier releases.
"""

from __future__ import annotations

from deepeval.metrics._engine.violations import ViolationMetric
from deepeval.metrics.toxicity.pipeline import PIPELINE
from deepeval.metrics.toxicity.prompts import ToxicityTemplate


class ToxicityMetric(ViolationMetric):
    """Share of the output's opinions that are not toxic. Score in [0, 1]; higher is better.

    Args: :class:`~deepeval.metrics._engine.violations.ViolationMetric`'s (deepeval 4.3.1's order).
    """

    pipeline = PIPELINE
    default_template = ToxicityTemplate
    notes_direction = "ToxicityMetric"
