"""JSON correctness's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from pydantic import BaseModel

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.json_correctness.names import REQUIRED_PARAMS


class Opening(BaseModel):
    """The schema of the declaration's example: ``{"time": "7 am"}``."""

    time: str


DECLARATIONS = (
    MetricDeclaration(
        name="json_correctness",
        public_name="JsonCorrectnessMetric",
        cls="deepeval.metrics.json_correctness.metric:JsonCorrectnessMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        example_args={"expected_schema": Opening},
        takes_eval_mode=True,
    ),
)
