"""Running metrics over test cases: :func:`evaluate` / :func:`a_evaluate`, :func:`assert_test`, their configs and
result types. Importing this package is cheap (no rich, jinja2, sqlite or metric code until a run starts)."""

from deepeval.evaluate.api import a_evaluate, evaluate
from deepeval.evaluate.arena import compare
from deepeval.evaluate.assertions import assert_test
from deepeval.evaluate.backends.ray.backend import RateLimit, RayConfig
from deepeval.evaluate.configs import (
    AsyncConfig,
    CacheConfig,
    DisplayConfig,
    ErrorConfig,
    TestRunResultDisplay,
)
from deepeval.evaluate.results import EvaluationError, EvaluationResult, MetricData, RepeatStats, TestResult

__all__ = [
    "AsyncConfig",
    "CacheConfig",
    "DisplayConfig",
    "ErrorConfig",
    "EvaluationError",
    "EvaluationResult",
    "MetricData",
    "RateLimit",
    "RayConfig",
    "RepeatStats",
    "TestResult",
    "TestRunResultDisplay",
    "a_evaluate",
    "assert_test",
    "compare",
    "evaluate",
]
