"""``BaseMetric.is_successful``: None in score-only mode (``threshold=None``), False after an error or without a
score, else ``score >= threshold`` (deepeval 4.3.1's rule, for user metrics that do not override it)."""

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
    score_only = _metric(cls, 0.6, threshold=None, error="judge down")
    assert score_only.is_successful() is None and score_only.success is None


def test_is_successful_lets_an_unexpected_comparison_error_through() -> None:
    class Odd:
        def __ge__(self, other: object) -> bool:
            raise ValueError("cannot compare")

    with pytest.raises(ValueError, match="cannot compare"):
        _metric(BaseMetric, Odd()).is_successful()
