from __future__ import annotations

import math

import pytest

from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import MetricData
from deepeval.evaluate.runner import aggregate_repeats
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)
NO_CACHE = CacheConfig(write_cache=False)
SCRIPT = [0.2, 0.6, 1.0]  # the judge's answers vary across repetitions


def test_repeat_reports_exact_mean_std_and_pass_rate_in_order():
    m = ScoreMetric(lambda tc, n: SCRIPT[n], threshold=0.5, cost=0.001)
    result = evaluate(
        [LLMTestCase(input="q0", actual_output="a")],
        [m],
        repeat=3,
        display_config=QUIET,
        cache_config=NO_CACHE,
        async_config=AsyncConfig(max_concurrent=1),
    )
    row = result.test_results[0].metrics_data[0]
    assert row.repeat is not None
    assert row.repeat.k == 3 and row.repeat.scores == SCRIPT
    assert row.repeat.mean == pytest.approx(0.6) and row.score == pytest.approx(0.6)
    assert row.repeat.std == pytest.approx(math.sqrt((0.16 + 0.0 + 0.16) / 3))  # population std = 0.32660
    assert row.repeat.pass_rate == pytest.approx(2 / 3)
    assert row.success is True  # mean 0.6 >= 0.5
    assert row.evaluation_cost == pytest.approx(0.003)
    assert len(m.log.calls) == 3


def test_repeat_concurrent_and_per_test_case():
    m = ScoreMetric(lambda tc, n: SCRIPT[n] if tc.input == "q0" else 0.4, threshold=0.7)
    result = evaluate(
        [LLMTestCase(input="q0", actual_output="a"), LLMTestCase(input="q1", actual_output="a")],
        [m],
        repeat=3,
        display_config=QUIET,
        cache_config=NO_CACHE,
    )
    r0, r1 = (t.metrics_data[0] for t in result.test_results)
    assert sorted(r0.repeat.scores) == SCRIPT and r0.repeat.pass_rate == pytest.approx(1 / 3)
    assert r0.success is False  # mean 0.6 < 0.7
    assert (r1.repeat.mean, r1.repeat.std, r1.repeat.pass_rate) == (pytest.approx(0.4), 0.0, 0.0)
    assert len(result.test_results[0].metrics_data) == 1  # one row per metric, not per repetition


def test_repeat_with_an_errored_repetition():
    m = ScoreMetric(lambda tc, n: [0.9, 0.5, 0.7][n], threshold=0.5, fail_on=lambda tc: None)
    calls = {"n": 0}

    def fail_second(tc):
        calls["n"] += 1
        return "judge timeout" if calls["n"] == 2 else None

    m.fail_on = fail_second
    result = evaluate(
        [LLMTestCase(input="q0", actual_output="a")],
        [m],
        repeat=3,
        display_config=QUIET,
        cache_config=NO_CACHE,
        async_config=AsyncConfig(max_concurrent=1),
        error_config=ErrorConfig(ignore_errors=True),
    )
    row = result.test_results[0].metrics_data[0]
    assert row.repeat.scores == [0.9, None, 0.7] and row.repeat.errors == 1
    assert row.repeat.mean == pytest.approx(0.8) and row.repeat.pass_rate == pytest.approx(2 / 3)
    assert row.error == "1 of 3 repetitions errored; first: RuntimeError: judge timeout"
    assert row.success is False


def test_repeat_uses_the_cache_per_repetition(tmp_path):
    path = str(tmp_path / "c.sqlite")
    m = ScoreMetric(lambda tc, n: SCRIPT[n % 3])
    evaluate(
        [LLMTestCase(input="q0", actual_output="a")],
        [m],
        repeat=3,
        display_config=QUIET,
        cache_config=CacheConfig(cache_path=path),
        async_config=AsyncConfig(max_concurrent=1),
    )
    again = evaluate(
        [LLMTestCase(input="q0", actual_output="a")],
        [m],
        repeat=3,
        display_config=QUIET,
        cache_config=CacheConfig(cache_path=path, use_cache=True),
    )
    assert len(m.log.calls) == 3 and again.cache_hits == 3
    assert again.test_results[0].metrics_data[0].repeat.scores == SCRIPT


def test_aggregate_without_threshold_and_sample_of_one():
    rows = [MetricData(name="x", score=0.3, threshold=None, success=None)]
    agg = aggregate_repeats(rows)
    assert (agg.repeat.mean, agg.repeat.std, agg.repeat.pass_rate, agg.success) == (0.3, 0.0, None, None)
