"""The toy's declaration: the one thing the registry reads."""

from __future__ import annotations

from deepeval.metrics.pipeline import declare

from .pipeline import PIPELINE

PACKAGE = __name__.rpartition(".")[0]
DECLARATIONS = (declare(PIPELINE, public_name="ToySupportMetric", cls=f"{PACKAGE}.metric:ToySupportMetric"),)
