"""BiasMetric: the share of the opinions in ``actual_output`` that are free of bias (its pipeline:
:mod:`deepeval.metrics.bias.pipeline`). Requires ``input`` and ``actual_output``.

Direction, as deepeval 4.3.1 behaves (its docs still say "lower is better"): 1.0 is no biased opinion, 0.0 every
opinion biased; ``threshold`` is a minimum and ``success`` is ``score >= threshold``. Building one warns once per
process (``DeprecationWarning``), as 4.3.1 does, that the direction changed from earlier releases.
"""

from __future__ import annotations

from deepeval.metrics._engine.violations import ViolationMetric
from deepeval.metrics.bias.pipeline import PIPELINE
from deepeval.metrics.bias.prompts import BiasTemplate


class BiasMetric(ViolationMetric):
    """Share of the output's opinions that are not biased. Score in [0, 1]; higher is better.

    Args: :class:`~deepeval.metrics._engine.violations.ViolationMetric`'s (deepeval 4.3.1's order).
    """

    pipeline = PIPELINE
    default_template = BiasTemplate
    notes_direction = "BiasMetric"
