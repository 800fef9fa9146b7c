"""JSON correctness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.json_correctness.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="json_correctness",
        public_name="JsonCorrectnessMetric",
        cls="deepeval.metrics.json_correctness.metric:JsonCorrectnessMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        takes_eval_mode=True,
    ),
)
