"""Pattern match's declaration (read by :mod:`deepeval.metrics.registry`)."""

from __future__ import annotations

from deepeval.metrics.declaration import MetricDeclaration
from deepeval.metrics.pattern_match.names import REQUIRED_PARAMS

DECLARATIONS = (
    MetricDeclaration(
        name="pattern_match",
        public_name="PatternMatchMetric",
        cls="deepeval.metrics.pattern_match.metric:PatternMatchMetric",
        conversational=False,
        required_params=REQUIRED_PARAMS,
        example_args={"pattern": r"At \d+ am\."},
    ),
)
