"""PIILeakageMetric: the share of the output's statements about people or personal data that leak nothing private
(its pipeline: :mod:`deepeval.metrics.pii_leakage.pipeline`). Requires ``input`` and ``actual_output``. Higher is
better; ``threshold`` is a minimum (deepeval 4.3.1's behaviour)."""

from __future__ import annotations

from deepeval.metrics.pii_leakage.pipeline import PIPELINE
from deepeval.metrics.pii_leakage.prompts import PIILeakageTemplate
from deepeval.metrics.pipeline import PipelineMetric


class PIILeakageMetric(PipelineMetric):
    """Share of the output's personal-data statements that leak nothing. Score in [0, 1]; higher is better.
    Constructor: :class:`~deepeval.metrics._engine.metric.EngineMetric`'s (deepeval 4.3.1's parameters)."""

    pipeline = PIPELINE
    default_template = PIILeakageTemplate
