from __future__ import annotations

import asyncio
import json

import pytest

from deepeval import evaluate
from deepeval.errors import ConfigurationError
from deepeval.evaluate import (
    AsyncConfig,
    CacheConfig,
    DisplayConfig,
    ErrorConfig,
    EvaluationError,
    TestResult,
    a_evaluate,
)
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

from ._fakes import ConvMetric, ScoreMetric

QUIET = DisplayConfig(show_indicator=False, print_results=False)
NO_CACHE = CacheConfig(write_cache=False)


def cases(n: int, **extra) -> list[LLMTestCase]:
    return [LLMTestCase(input=f"q{i}", actual_output=f"a{i}", **extra) for i in range(n)]


def run(test_cases, metrics, **kw):
    kw.setdefault("display_config", QUIET)
    kw.setdefault("cache_config", NO_CACHE)
    return evaluate(test_cases, metrics, **kw)


def score_of(tc, n):
    return int(tc.input[1:]) / 10


def test_rows_in_input_order_with_scores_and_success():
    # later test cases finish first (shorter delays), results must still come back in input order
    m1 = ScoreMetric(score_of, name="A", threshold=0.5, delay=lambda tc: 0.02 * (5 - int(tc.input[1:])))
    m2 = ScoreMetric(0.9, name="B", threshold=0.8)
    result = run(cases(5), [m1, m2])
    assert [t.name for t in result.test_results] == [f"test_case_{i}" for i in range(5)]
    assert [t.input for t in result.test_results] == [f"q{i}" for i in range(5)]
    assert [[m.name for m in t.metrics_data] for t in result.test_results] == [["A", "B"]] * 5
    assert [t.metrics_data[0].score for t in result.test_results] == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert [t.metrics_data[1].score for t in result.test_results] == [0.9] * 5
    assert [t.success for t in result.test_results] == [False] * 5  # A below 0.5 everywhere
    assert all(t.metrics_data[1].success is True for t in result.test_results)
    row = result.test_results[3].metrics_data[0]
    assert (row.threshold, row.reason, row.evaluation_model, row.error) == (
        0.5,
        "A scored 0.30",
        "scripted-judge",
        None,
    )
    assert row.duration_s is not None and row.duration_s >= 0.03
    # originals untouched: copies were measured
    assert m1.score is None and m2.score is None
    assert len(m1.log.calls) == 5


def test_flaky_metric_does_not_fail_the_test_case():
    good = ScoreMetric(1.0, name="good")
    flaky_bad = ScoreMetric(0.0, name="flaky", flaky=True)
    result = run(cases(2), [good, flaky_bad])
    assert [t.success for t in result.test_results] == [True, True]
    assert result.test_results[0].metrics_data[1].success is False
    assert result.test_results[0].metrics_data[1].flaky is True


def test_score_only_metric_has_no_verdict():
    result = run(cases(1), [ScoreMetric(0.1, threshold=None), ScoreMetric(0.9, name="decides")])
    row = result.test_results[0].metrics_data[0]
    assert row.success is None and row.score == 0.1 and row.status == "scored"
    assert result.test_results[0].success is True


@pytest.mark.parametrize("flaky", [False, True])
def test_no_non_flaky_metric_with_a_threshold_is_refused_as_deepeval_does(flaky: bool):
    """deepeval 4.3.1: evaluate() needs one metric that can decide (not flaky, with a threshold)."""
    metrics = [ScoreMetric(0.1, threshold=None)]
    if flaky:
        metrics = [ScoreMetric(0.1, name="flaky", flaky=True), *metrics]
    with pytest.raises(
        ValueError, match=r"^You must provide at least one non-flaky metric with a 'threshold'"
    ):
        run(cases(1), metrics)


def test_errors_recorded_on_rows_then_raised_with_full_result():
    fails = ScoreMetric(
        0.7, name="F", fail_on=lambda tc: "judge exploded" if tc.input in {"q1", "q3"} else None
    )
    ok = ScoreMetric(0.7, name="OK")
    with pytest.raises(EvaluationError) as info:
        run(cases(4), [fails, ok])
    err = info.value
    result = err.result
    assert len(result.test_results) == 4 and all(len(t.metrics_data) == 2 for t in result.test_results)
    errored = [(name, m.name, m.error) for name, m in err.errors]
    assert errored == [
        ("test_case_1", "F", "RuntimeError: judge exploded"),
        ("test_case_3", "F", "RuntimeError: judge exploded"),
    ]
    assert "2 of 8 metric rows errored" in str(err) and "judge exploded" in str(err)
    assert [t.success for t in result.test_results] == [True, False, True, False]
    assert result.test_results[1].metrics_data[0].success is False
    assert result.test_results[1].metrics_data[1].score == 0.7  # the other metric still ran
    # ignore_errors returns the same rows without raising
    result2 = run(cases(4), [fails, ok], error_config=ErrorConfig(ignore_errors=True))
    assert [m.error for t in result2.test_results for m in t.metrics_data].count(
        "RuntimeError: judge exploded"
    ) == 2


def test_secret_in_error_is_redacted(monkeypatch, tmp_path):
    secret = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    leaky = ScoreMetric(0.5, fail_on=lambda tc: f"401 for key {secret}")
    result = run(
        cases(1),
        [leaky],
        error_config=ErrorConfig(ignore_errors=True),
        display_config=DisplayConfig(
            show_indicator=False, print_results=False, results_folder=str(tmp_path / "out")
        ),
    )
    assert result.test_results[0].metrics_data[0].error == "RuntimeError: 401 for key ***"
    assert secret not in result.to_json()
    for f in (tmp_path / "out").iterdir():
        assert secret not in f.read_text()


def test_secret_in_a_judge_name_is_redacted_on_the_row(monkeypatch):
    secret = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    result = run(cases(1), [ScoreMetric(0.5, judge=f"proxy-judge?key={secret}")])
    assert result.test_results[0].metrics_data[0].evaluation_model == "proxy-judge?key=***"
    assert secret not in result.to_json()


def test_skip_on_missing_params_leaves_the_metric_out_of_metrics_data():
    # as deepeval 4.3.1: the skipped metric is not in metrics_data; ours keeps its row, with the reason, in
    # skipped_metrics
    needs_ctx = ScoreMetric(1.0, name="Ctx", requires=["retrieval_context"])
    other = ScoreMetric(1.0, name="Other")
    result = run(cases(2), [needs_ctx, other], error_config=ErrorConfig(skip_on_missing_params=True))
    first = result.test_results[0]
    assert [m.name for m in first.metrics_data] == ["Other"]
    (row,) = first.skipped_metrics or []
    assert (row.name, row.skipped, row.success, row.score, row.error) == ("Ctx", True, None, None, None)
    assert row.reason == "skipped: Ctx needs 'retrieval_context', which is missing"
    assert first.success is True and first.to_dict()["skipped_metrics"][0]["name"] == "Ctx"
    totals = result.totals()
    assert (totals["metric_rows"], totals["skipped"], totals["skipped_metrics"]) == (2, 0, 2)
    with pytest.raises(EvaluationError, match="MissingTestCaseParamsError: Ctx needs 'retrieval_context'"):
        run(cases(2), [needs_ctx, other])


def test_mixed_test_case_kinds_are_skipped_with_reason():
    convo = ConversationalTestCase(
        turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="hello")]
    )
    single = LLMTestCase(input="q", actual_output="a")
    result = run([single, convo], [ScoreMetric(1.0, name="Single"), ConvMetric()])
    single_rows, convo_rows = (t.metrics_data for t in result.test_results)
    assert [m.status for m in single_rows] == ["passed", "skipped"]
    assert [m.status for m in convo_rows] == ["skipped", "passed"]
    assert convo_rows[1].score == 0.5
    assert "conversational metric and this test case is single-turn" in single_rows[1].reason
    assert "single-turn metric and this test case is conversational" in convo_rows[0].reason
    assert result.test_results[1].conversational is True
    assert result.test_results[1].turns == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
    ]


def test_conversational_results_are_named_like_deepeval_and_turns_read_as_attributes():
    convo = ConversationalTestCase(
        turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="hello")]
    )
    single = LLMTestCase(input="q", actual_output="a")
    result = run([single, convo], [ScoreMetric(1.0, name="Single"), ConvMetric()])
    assert [t.name for t in result.test_results] == ["test_case_0", "conversational_test_case_1"]
    turns = result.test_results[1].turns
    assert turns is not None
    assert [(t.role, t.content, t.retrieval_context) for t in turns] == [
        ("user", "hi", None),
        ("assistant", "hello", None),
    ]
    with pytest.raises(AttributeError, match="no field 'rol'"):
        _ = turns[0].rol
    # still plain data: JSON export and the dict round trip are unchanged
    data = result.test_results[1].to_dict()
    assert data["turns"] == [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert type(data["turns"][0]) is dict
    back = TestResult.from_dict(json.loads(json.dumps(data)))
    assert back.turns is not None and back.turns[1].role == "assistant"


def test_max_concurrent_bounds_measures_in_flight():
    m = ScoreMetric(1.0, delay=0.03)
    run(cases(12), [m], async_config=AsyncConfig(max_concurrent=3))
    assert m.log.peak == 3
    m2 = ScoreMetric(1.0, delay=0.2)  # long enough for all 12 to start before the first finishes
    run(cases(12), [m2], async_config=AsyncConfig(max_concurrent=20))
    assert m2.log.peak == 12


def test_max_concurrent_counts_test_cases_and_their_metrics_run_together():
    """deepeval's max_concurrent is a number of test cases: with 2 slots and 3 metrics, the 6 measures of 2 test
    cases run at once, never a measure of a third test case."""
    active: dict[str, int] = {}
    peaks = {"measures": 0, "cases": 0}

    class Probe(ScoreMetric):
        async def a_measure(self, tc, *args, **kwargs):
            active[tc.input] = active.get(tc.input, 0) + 1
            peaks["measures"] = max(peaks["measures"], sum(active.values()))
            peaks["cases"] = max(peaks["cases"], sum(1 for v in active.values() if v))
            try:
                await asyncio.sleep(0.05)
                return await super().a_measure(tc, *args, **kwargs)
            finally:
                active[tc.input] -= 1

    result = run(
        cases(6), [Probe(1.0, name=f"M{k}") for k in range(3)], async_config=AsyncConfig(max_concurrent=2)
    )
    assert [m.score for t in result.test_results for m in t.metrics_data] == [1.0] * 18
    assert peaks == {"measures": 6, "cases": 2}


def test_throttle_spaces_starts():
    m = ScoreMetric(1.0)
    run(cases(5), [m], async_config=AsyncConfig(throttle_value=0.05))
    gaps = [b - a for a, b in zip(m.log.starts, m.log.starts[1:], strict=False)]
    assert len(gaps) == 4 and min(gaps) >= 0.045


def test_run_async_false_calls_sync_measure_one_at_a_time():
    m = ScoreMetric(1.0, delay=0.01)
    run(cases(4), [m], async_config=AsyncConfig(run_async=False))
    assert [c[0] for c in m.log.calls] == ["measure"] * 4
    assert [c[1] for c in m.log.calls] == ["q0", "q1", "q2", "q3"]
    assert m.log.peak == 1


def test_measure_timeout_is_per_measure_and_keeps_every_row():
    slow_on_q1 = ScoreMetric(1.0, delay=lambda tc: 5.0 if tc.input == "q1" else 0.0)
    result = run(
        cases(3),
        [slow_on_q1],
        async_config=AsyncConfig(measure_timeout=0.2),
        error_config=ErrorConfig(ignore_errors=True),
    )
    assert [m.status for t in result.test_results for m in t.metrics_data] == ["passed", "error", "passed"]
    assert result.test_results[1].metrics_data[0].error == "TimeoutError: measure did not finish within 0.2 s"
    assert result.duration_s < 2.0


def test_verbose_mode_override_reaches_copies():
    seen = []

    class V(ScoreMetric):
        async def a_measure(self, tc, *a, **k):
            seen.append(self.verbose_mode)
            return await super().a_measure(tc)

    run(
        cases(2),
        [V(1.0)],
        display_config=DisplayConfig(show_indicator=False, print_results=False, verbose_mode=True),
    )
    assert seen == [True, True]


def test_evaluate_inside_running_loop_and_a_evaluate():
    async def main():
        sync_in_loop = evaluate(
            cases(3), [ScoreMetric(score_of)], display_config=QUIET, cache_config=NO_CACHE
        )
        awaited = await a_evaluate(
            cases(3), [ScoreMetric(score_of)], display_config=QUIET, cache_config=NO_CACHE
        )
        return sync_in_loop, awaited

    r1, r2 = asyncio.run(main())
    assert [t.metrics_data[0].score for t in r1.test_results] == [0.0, 0.1, 0.2]
    assert [t.metrics_data[0].score for t in r2.test_results] == [0.0, 0.1, 0.2]


@pytest.mark.asyncio
async def test_evaluate_under_pytest_asyncio():
    result = evaluate(cases(2), [ScoreMetric(0.6)], display_config=QUIET, cache_config=NO_CACHE)
    assert [t.success for t in result.test_results] == [True, True]
    assert asyncio.get_running_loop().is_running()


def _changed_after_construction(**fields: object) -> AsyncConfig:
    """An AsyncConfig made valid and then changed (construction itself refuses bad values)."""
    config = AsyncConfig()
    for name, value in fields.items():
        setattr(config, name, value)
    return config


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([], None), {}, ValueError, "at least one test case"),
        ((None, []), {}, ValueError, "at least one metric"),
        ((["not a case"], None), {}, TypeError, r"test_cases\[0\] is a str"),
        ((None, [object()]), {}, TypeError, r"metrics\[0\] is a object"),
        ((None, None), {"repeat": 0}, ConfigurationError, "repeat must be an integer >= 1"),
        (
            (None, None),
            {"async_config": _changed_after_construction(max_concurrent=0)},
            ConfigurationError,
            "max_concurrent",
        ),
        (
            (None, None),
            {"async_config": _changed_after_construction(throttle_value=-1)},
            ConfigurationError,
            "throttle_value",
        ),
        (
            (None, None),
            {"display_config": DisplayConfig(display_option="some")},
            ConfigurationError,
            "display_option",
        ),
    ],
)
def test_bad_input_is_a_clear_error(args, kwargs, error, match):
    tcs = cases(1) if args[0] is None else args[0]
    mets = [ScoreMetric(1.0)] if args[1] is None else args[1]
    with pytest.raises(error, match=match):
        run(tcs, mets, **kwargs)


def test_single_test_case_and_metric_are_accepted():
    result = run(LLMTestCase(input="q3", actual_output="x"), ScoreMetric(score_of))
    assert result.test_results[0].metrics_data[0].score == pytest.approx(0.3)


def test_print_results_and_json_export(tmp_path, capsys):
    result = evaluate(
        cases(2),
        [ScoreMetric(score_of, name="Acc"), ScoreMetric(0.9, name="Rel")],
        display_config=DisplayConfig(
            show_indicator=False,
            print_results=True,
            display_option="failing",
            results_folder=str(tmp_path / "res"),
        ),
        cache_config=NO_CACHE,
        identifier="nightly",
    )
    out = capsys.readouterr().out
    assert "Test results (failing)" in out and "test_case_0" in out and "test_case_1" in out
    assert "0/2 test cases passed" in out
    data = json.loads(open(result.extras["json_path"]).read())
    assert data["identifier"] == "nightly"
    assert data["totals"]["metric_rows"] == 4 and data["totals"]["failed"] == 2
    assert data["metrics"]["Acc"]["mean_score"] == pytest.approx(0.05)
    assert data["test_results"][1]["metrics_data"][0]["score"] == 0.1
    assert result.extras["html_path"].endswith(".html")


def test_progress_indicator_counts_test_cases_as_the_summary_does(capsys):
    evaluate(
        cases(4),
        [ScoreMetric(0.7, name="A"), ScoreMetric(0.2, name="B")],
        display_config=DisplayConfig(show_indicator=True, print_results=False),
        cache_config=NO_CACHE,
    )
    captured = capsys.readouterr()
    assert captured.out == ""
    # 4 test cases of 2 rows each: the bar counts test cases (each fails: metric B scores 0.2)
    assert "4/4 test cases, 0 passed 4 failed" in captured.err and "8/8" not in captured.err


def test_broken_cache_config_only_disables_caching_for_that_metric(tmp_path):
    class NoKey(ScoreMetric):
        def cache_config(self):
            raise RuntimeError("cannot describe myself")

    result = run(cases(2), [NoKey(0.8)], cache_config=CacheConfig(cache_path=str(tmp_path / "c.sqlite")))
    assert [t.metrics_data[0].score for t in result.test_results] == [0.8, 0.8]


def test_a_failing_finish_hook_is_an_error_row_not_a_crash():
    class BadRow(ScoreMetric):
        def _finish(self, tc, score):
            super()._finish(tc, score)
            self.score = "not a number"
            return 0.0

    result = run(
        cases(2), [BadRow(0.8), ScoreMetric(0.9, name="ok")], error_config=ErrorConfig(ignore_errors=True)
    )
    assert [m.status for t in result.test_results for m in t.metrics_data] == ["error", "passed"] * 2
    assert result.test_results[0].metrics_data[0].error == "metric set a score that is not a number (str)"


class _Raises(ScoreMetric):
    def __init__(self, exc: Exception) -> None:
        super().__init__(0.5, name="Raises")
        self.exc = exc

    def measure(self, tc, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise self.exc

    async def a_measure(self, tc, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise self.exc


def test_evaluation_error_is_also_the_first_errors_class_so_deepeval_excepts_keep_working():
    import pickle

    from deepeval.errors import MissingTestCaseParamsError

    class OwnError(Exception):
        pass

    with pytest.raises(MissingTestCaseParamsError) as info:
        run(cases(2), [_Raises(MissingTestCaseParamsError("Raises needs context"))])
    err = info.value
    assert isinstance(err, EvaluationError) and len(err.result.test_results) == 2  # no row lost
    assert "MissingTestCaseParamsError: Raises needs context" in str(err)
    assert pickle.loads(pickle.dumps(type(err))) is type(err)
    with pytest.raises(ValueError) as value_info:
        run(cases(1), [_Raises(ValueError("bad judge json"))])
    assert isinstance(value_info.value, EvaluationError)
    # a class outside deepeval.errors and the builtins cannot be named from the row: a plain EvaluationError
    with pytest.raises(EvaluationError) as plain:
        run(cases(1), [_Raises(OwnError("mine"))])
    assert type(plain.value) is EvaluationError


def test_a_rows_reason_and_verdicts_are_redacted_with_one_settings_lookup(monkeypatch):
    """Every verdict of a row is scrubbed of the settings' secrets, which are resolved once per row (each lookup
    reads the environment and the dotenv files: once per verdict it was a large part of a run's last moments)."""
    from deepeval.config import settings as settings_module
    from deepeval.evaluate.rows import build_row
    from deepeval.metrics.flow import result_of

    secret = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    metric = ScoreMetric(0.5)
    metric.score, metric.reason = 0.5, f"reason quoting {secret}"
    metric.evaluation_model = f"proxy-judge?key={secret}"
    metric.verdicts = [{"verdict": "yes", "reason": f"statement {i} says {secret}"} for i in range(40)]
    lookups = []
    real = settings_module.get_settings
    monkeypatch.setattr(settings_module, "get_settings", lambda: lookups.append(1) or real())
    row = build_row(metric, result_of(metric), 0.1)
    assert len(lookups) == 1
    assert row.reason == "reason quoting ***"
    assert row.evaluation_model == "proxy-judge?key=***"
    assert [v["reason"] for v in row.verdicts] == [f"statement {i} says ***" for i in range(40)]
