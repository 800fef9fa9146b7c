"""The frame every measure of our metrics runs in (the engine's three metrics and the memory metrics alike).

:func:`measuring` clears the result attributes, opens a :func:`~deepeval.models.usage.track_usage` block for the
judge calls, and copies their tokens and cost onto the metric when the block ends. When the block raises, the usage
so far is still copied and the exception propagates with the result attributes left cleared (``score``,
``success`` and ``error`` None, as deepeval 4.3.1 leaves a metric whose ``measure()`` raised); ``evaluate()`` turns
the exception into the row's error (redacted there).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from deepeval.metrics.base_metric import BaseMetric
from deepeval.models.usage import UsageTracker, track_usage


@contextmanager
def measuring(metric: BaseMetric) -> Iterator[UsageTracker]:
    """See the module docstring; yields the measure's usage tracker."""
    metric.reset_result()
    with track_usage() as usage:
        try:
            yield usage
        except Exception:
            clear_result(metric)
            copy_usage(metric, usage)
            raise
    copy_usage(metric, usage)


def clear_result(metric: BaseMetric) -> None:
    """After a failed measure: no score, no verdict, no ``error`` (the exception carries the error, as deepeval)."""
    metric.score = None
    metric.success = None
    metric.error = None


def copy_usage(metric: BaseMetric, usage: UsageTracker) -> None:
    """``evaluation_cost`` (None when no judge reported a cost) and tokens (None when no judge reported any)."""
    metric.evaluation_cost = usage.cost
    recorded = usage.input_tokens or usage.output_tokens
    metric.input_tokens = usage.input_tokens if recorded else None
    metric.output_tokens = usage.output_tokens if recorded else None
