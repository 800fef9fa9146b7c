"""``deepeval.evaluate.types``: the result types where deepeval keeps them (``from deepeval.evaluate.types import
EvaluationResult``)."""

from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult

__all__ = ["EvaluationResult", "MetricData", "TestResult"]
