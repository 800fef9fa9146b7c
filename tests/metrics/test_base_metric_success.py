"""``BaseMetric.is_successful`` is the one success rule (:func:`deepeval.metrics.scoring.success_of`): False after an
error or without a comparable score, None in score-only mode (``threshold=None``), else ``score >= threshold``; the
metric's ``success``, its result row, a memory metric and ``assert_test`` agree with it."""

from __future__ import annotations

import pytest

from deepeval.metrics import BaseConversationalMetric, BaseMetric


def _metric(
    cls: type[BaseMetric], score: object, threshold: float | None = 0.5, error: str | None = None
) -> BaseMetric:
    metric = cls.__new__(cls)
    metric.score, metric.threshold, metric.error = score, threshold, error  # type: ignore[assignment]
    return metric


@pytest.mark.parametrize("cls", [BaseMetric, BaseConversationalMetric])
def test_is_successful_follows_threshold_error_and_score(cls: type[BaseMetric]) -> None:
    assert _metric(cls, 0.6).is_successful() is True
    assert _metric(cls, 0.5).is_successful() is True  # the threshold is a minimum
    assert _metric(cls, 0.4).is_successful() is False
    assert _metric(cls, None).is_successful() is False
    assert _metric(cls, 0.9, error="judge down").is_successful() is False
    assert _metric(cls, 0.6, threshold=None).is_successful() is None  # score-only mode: no verdict
    # an errored measure is no success, score-only or not: its row says False, and so does the metric now (deepeval
    # 4.3.1's BaseMetric said None here, so success flipped from False to None when is_successful() was called)
    score_only = _metric(cls, 0.6, threshold=None, error="judge down")
    assert score_only.is_successful() is False and score_only.success is False
    assert _metric(cls, None, threshold=None).is_successful() is False
    assert (
        _metric(cls, "0.9").is_successful() is False
    )  # a score that does not compare: no success, as deepeval


def test_is_successful_lets_an_unexpected_comparison_error_through() -> None:
    class Odd:
        def __ge__(self, other: object) -> bool:
            raise ValueError("cannot compare")

    with pytest.raises(ValueError, match="cannot compare"):
        _metric(BaseMetric, Odd()).is_successful()


GRID = [
    (score, threshold, error)
    for score in (None, 0.0, 0.49, 0.5, 1.0)
    for threshold in (None, 0.5)
    for error in (None, "judge down")
]


@pytest.mark.parametrize(("score", "threshold", "error"), GRID)
def test_the_metric_and_its_row_follow_the_one_rule(
    score: float | None, threshold: float | None, error: str | None
) -> None:
    from deepeval.evaluate.rows import build_row
    from deepeval.metrics.flow import result_of
    from deepeval.metrics.scoring import success_of

    metric = _metric(BaseMetric, score, threshold, error)
    expected = success_of(score, threshold, errored=error is not None)
    assert metric.is_successful() is expected
    row = build_row(metric, result_of(metric), None)
    assert row.success is (False if score is None else expected)  # a row without a score is an error row


def test_an_errored_memory_metric_stays_unsuccessful_in_score_only_mode() -> None:
    from deepeval.memory.metrics import MemoryRecallMetric
    from deepeval.test_case import LLMTestCase

    metric = MemoryRecallMetric(threshold=None)
    with pytest.raises(Exception, match="memory_manifest"):
        metric.measure(LLMTestCase(input="q", actual_output="a"))
    # as deepeval 4.3.1: a measure() that raised leaves ``success`` None; is_successful() then says (and sets) False
    assert metric.success is None
    assert metric.is_successful() is False and metric.success is False
