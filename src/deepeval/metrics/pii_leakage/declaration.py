"""PII leakage's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.pii_leakage.pipeline import PIPELINE
from deepeval.metrics.pipeline import declare

DECLARATIONS = (
    declare(
        PIPELINE, public_name="PIILeakageMetric", cls="deepeval.metrics.pii_leakage.metric:PIILeakageMetric"
    ),
)
