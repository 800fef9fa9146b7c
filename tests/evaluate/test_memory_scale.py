"""Memory of ``evaluate()`` as N grows (issue 8: peak RSS from 1,000 to 10,000 test cases under 2x).

Deterministic checks only (object counts and tracemalloc byte counts, never timing): no repr of the whole result
is ever built, and the bytes a run keeps per result row stay under a ceiling.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import sys
import threading
import tracemalloc
import weakref
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval._concurrency import run_sync
from deepeval.evaluate import (
    AsyncConfig,
    CacheConfig,
    DisplayConfig,
    ErrorConfig,
    EvaluationResult,
    MetricData,
    TestResult,
)
from deepeval.evaluate.display import FAILING_DETAILS, TABLE_CHUNK, print_results, render_results
from deepeval.evaluate.results import case_status
from deepeval.evaluate.rows import metric_name
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM

from ._fakes import ConvMetric, CountingSystemOne, PlanMetric, ScoreMetric


class _Loud:
    """A value that counts every ``repr()`` of it."""

    def __init__(self) -> None:
        self.reprs = 0

    def __repr__(self) -> str:
        self.reprs += 1
        return "<loud>"


async def _give(value: Any) -> Any:
    await asyncio.sleep(0)
    return value


def test_run_sync_returns_the_value_without_repr_of_it_from_the_main_thread() -> None:
    # CPython 3.11's asyncio.run formats repr(main task) -> repr(its result) on the way out; run_sync must not
    # expose the result as the task's result (it was a whole-result string of ~36 KB per test case).
    assert threading.current_thread() is threading.main_thread()
    loud = _Loud()
    assert run_sync(_give(loud)) is loud
    assert loud.reprs == 0


def test_run_sync_inside_a_running_loop_returns_the_value_without_repr() -> None:
    loud = _Loud()
    got: list[Any] = []

    async def inside() -> None:  # returns None: this test's own asyncio.run would repr a returned value
        got.append(run_sync(_give(loud)))  # worker-thread path

    asyncio.run(inside())
    assert got == [loud] and got[0] is loud
    assert loud.reprs == 0


def test_run_sync_propagates_the_exception_unchanged() -> None:
    class Boom(Exception):
        pass

    async def fail() -> None:
        raise Boom("x")

    with pytest.raises(Boom, match="x"):
        run_sync(fail())


def test_evaluate_never_builds_a_repr_of_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counting_repr(self: EvaluationResult) -> str:
        calls.append(len(self.test_results))
        return "<result>"

    monkeypatch.setattr(EvaluationResult, "__repr__", counting_repr)
    cases = [LLMTestCase(input=f"q{i}", actual_output=f"a{i}") for i in range(20)]
    result = evaluate(
        cases,
        [ScoreMetric(0.75)],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    assert [t.metrics_data[0].score for t in result.test_results] == [0.75] * 20
    assert calls == []


# --- a fixed workload: results must stay what the eager runner produced ----------------------------------------
GOLDEN = Path(__file__).with_name("data") / "runner_golden.json"


def _workload() -> tuple[list[Any], list[Any]]:
    """Single-turn and conversational cases x metrics covering every kind of row: passed, failed, errored,
    skipped (wrong kind, missing field), flaky, System One batched, conversational."""
    s1 = CountingSystemOne(p=0.7, level=2.0)
    cases: list[Any] = []
    for i in range(12):
        cases.append(
            LLMTestCase(
                input=f"question {i}",
                actual_output=f"answer {i}",
                expected_output=None if i % 4 == 0 else f"expected {i}",
                retrieval_context=[f"node {i}a", f"node {i}b"],
                name=None if i % 3 else f"case-{i}",
            )
        )
        if i % 3 == 0:
            cases.append(
                ConversationalTestCase(
                    turns=[
                        Turn(role="user", content=f"hi {i}"),
                        Turn(role="assistant", content=f"hello {i}"),
                    ],
                    name=f"chat-{i}",
                )
            )
    metrics: list[Any] = [
        ScoreMetric(lambda tc, n: (len(tc.input) % 7) / 6, name="Len", cost=0.001),
        ScoreMetric(0.9, name="NeedsExpected", requires=["expected_output"]),
        ScoreMetric(
            0.4, name="Breaks", fail_on=lambda tc: "boom" if tc.input.endswith("5") else None, flaky=True
        ),
        ConvMetric(threshold=0.5),
        PlanMetric(s1, "PlanA"),
        PlanMetric(s1, "PlanB", n_nouls=1),
    ]
    return cases, metrics


def _normalised(result: EvaluationResult) -> list[dict[str, Any]]:
    """Test results as JSON data without wall times (which vary run to run). The rows left out under
    skip_on_missing_params (``skipped_metrics``, added after the golden was recorded) go back to their metric's
    place in ``metrics_data``, as the golden has them."""
    order = [metric_name(m) for m in _workload()[1]]
    out = []
    for t in result.test_results:
        d = t.to_dict()
        # fields added after the golden was recorded: derived from (status) or copied onto (prompt_version) rows
        d.pop("status")
        assert d.pop("span_type") is None and d.pop("trace_status") is None
        d["metrics_data"] = sorted(
            d["metrics_data"] + (d.pop("skipped_metrics") or []), key=lambda m: order.index(m["name"])
        )
        d["success"] = case_status([MetricData.from_dict(m) for m in d["metrics_data"]]) == "passed"
        for m in d["metrics_data"]:
            assert (m.pop("error_kind") is None) == (
                m["error"] is None
            )  # added after the golden: with an error
            m.pop("prompt_version", None)
            m.pop("verdicts", None)
            m.pop("duration_s", None)
            m.pop("verbose_logs", None)
            if m.get("system_one_batch"):
                m["system_one_batch"].pop("request_s", None)
        out.append(d)
    return out


def _run_workload(**kwargs: Any) -> EvaluationResult:
    cases, metrics = _workload()
    return evaluate(
        cases,
        metrics,
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True, skip_on_missing_params=True),
        **kwargs,
    )


@pytest.mark.parametrize("max_concurrent", [1, 4, 50])
def test_results_equal_the_recorded_run_of_the_eager_runner(max_concurrent: int) -> None:
    # tests/evaluate/data/runner_golden.json was written by the runner before it planned lazily (commit fcb2a51)
    # from this same workload: every row, in the same order, with the same content.
    result = _run_workload(async_config=AsyncConfig(max_concurrent=max_concurrent))
    golden = json.loads(GOLDEN.read_text())
    got = _normalised(result)
    assert len(got) == len(golden["single"]) == 16
    assert got == golden["single"]
    kinds = Counter(m["status"] if "status" in m else _status(m) for t in got for m in t["metrics_data"])
    assert kinds == Counter(golden["kinds"])


def test_repeat_results_equal_the_recorded_run_of_the_eager_runner() -> None:
    result = _run_workload(repeat=2)
    assert _normalised(result) == json.loads(GOLDEN.read_text())["repeat2"]


def _status(m: dict[str, Any]) -> str:
    return MetricData.from_dict(m).status


# --- verbose logs: in the rows only when asked for ---------------------------------------------------------------
def _ar_llm() -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        name = getattr(schema, "__name__", None)
        if name == "Statements":
            return {"statements": ["Refunds take 30 days.", "Our shoes are red."]}
        if name == "Verdicts":
            return {"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "colour is off topic"}]}
        if name == "AnswerRelevancyScoreReason":
            return {"reason": "one of two statements is relevant"}
        raise AssertionError(f"unexpected schema {name}")

    return ScriptedLLM(respond)


AR_CASE = LLMTestCase(input="How do refunds work?", actual_output="Refunds take 30 days. Our shoes are red.")


def _ar_row(metric: Any, verbose: bool | None, capsys: pytest.CaptureFixture[str]) -> MetricData:
    result = evaluate(
        [AR_CASE],
        [metric],
        display_config=DisplayConfig(show_indicator=False, print_results=False, verbose_mode=verbose),
        cache_config=CacheConfig(write_cache=False),
    )
    capsys.readouterr()
    (row,) = result.test_results[0].metrics_data
    assert row.score == pytest.approx(0.5) and row.error is None
    return row


def test_rows_carry_verbose_logs_only_in_verbose_mode(capsys: pytest.CaptureFixture[str]) -> None:
    direct = AnswerRelevancyMetric(model=_ar_llm(), eval_mode="llm")
    direct.measure(AR_CASE)  # the metric itself always keeps its steps (as deepeval does)
    assert direct.verbose_logs is not None and "Eval mode: llm" in direct.verbose_logs
    assert "colour is off topic" in direct.verbose_logs

    quiet = _ar_row(AnswerRelevancyMetric(model=_ar_llm(), eval_mode="llm"), None, capsys)
    assert quiet.verbose_logs is None
    assert quiet.reason == "one of two statements is relevant"
    assert quiet.score_breakdown is not None and quiet.score_breakdown["statements"] == 2

    by_config = _ar_row(AnswerRelevancyMetric(model=_ar_llm(), eval_mode="llm"), True, capsys)
    assert by_config.verbose_logs == direct.verbose_logs

    by_metric = _ar_row(
        AnswerRelevancyMetric(model=_ar_llm(), eval_mode="llm", verbose_mode=True), None, capsys
    )
    assert by_metric.verbose_logs == direct.verbose_logs

    overridden = _ar_row(
        AnswerRelevancyMetric(model=_ar_llm(), eval_mode="llm", verbose_mode=True), False, capsys
    )
    assert overridden.verbose_logs is None


# --- per-case state is released as rows finish -------------------------------------------------------------------
class _TrackedMetric(ScoreMetric):
    """Counts its live fresh copies (a WeakSet shared by the copies) at every measure."""

    def __init__(self) -> None:
        super().__init__(lambda tc, n: 0.8, name="Tracked", delay=0.001)
        self.live: weakref.WeakSet[Any] = weakref.WeakSet()
        self.peak_live = 0

    def fresh_copy(self) -> Any:
        copy = super().fresh_copy()
        self.live.add(copy)
        return copy

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        original = self.origin
        original.peak_live = max(original.peak_live, len(original.live))
        return await super().a_measure(test_case)

    @property
    def origin(self) -> _TrackedMetric:
        return self._origin if hasattr(self, "_origin") else self


def test_metric_copies_live_only_while_their_row_is_open() -> None:
    metric = _TrackedMetric()
    metric._origin = metric  # copies share the attribute (shallow copy)
    cases = [LLMTestCase(input=f"q{i}", actual_output=f"a{i}") for i in range(200)]
    result = evaluate(
        cases,
        [metric],
        async_config=AsyncConfig(max_concurrent=5),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
    )
    assert [t.metrics_data[0].score for t in result.test_results] == [0.8] * 200
    # the eager runner held all 200 copies until the end; now at most one per worker plus the one being planned
    assert 1 <= metric.peak_live <= 6
    gc.collect()
    assert len(metric.live) == 0


# --- bytes kept per result row (tracemalloc: allocation counting, not timing) ------------------------------------
class _Unrecorded(list):  # type: ignore[type-arg]
    def append(self, item: Any) -> None:
        pass


def _bytes_per_row(n: int) -> tuple[float, float]:
    """``(held, peak)`` traced bytes per result row of one ``evaluate()`` of ``n`` test cases (half single-turn
    cases scored by AnswerRelevancy on a scripted LLM, half conversations; the other metric's pair is a skipped
    row): held = what the returned result keeps, peak = the most the run had allocated at once."""
    llm = _ar_llm()
    llm.calls = _Unrecorded()  # the scripted judge's own log of prompts is not the runner's memory
    cases: list[Any] = []
    for i in range(n):
        if i % 2:
            cases.append(
                ConversationalTestCase(
                    turns=[Turn(role="user", content=f"hi {i}"), Turn(role="assistant", content=f"hello {i}")]
                )
            )
        else:
            cases.append(
                LLMTestCase(input=f"How do refunds work? ({i})", actual_output=AR_CASE.actual_output)
            )
    metrics = [AnswerRelevancyMetric(model=llm, eval_mode="llm"), ConvMetric()]
    kwargs: dict[str, Any] = {
        "async_config": AsyncConfig(max_concurrent=20),
        "display_config": DisplayConfig(show_indicator=False, print_results=False),
        "cache_config": CacheConfig(write_cache=False),
    }
    evaluate(cases[:4], metrics, **kwargs)  # imports and one-time caches outside the measurement
    gc.collect()
    tracemalloc.start(1)
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = evaluate(cases, metrics, **kwargs)
        peak = tracemalloc.get_traced_memory()[1] - base
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    rows = [m for t in result.test_results for m in t.metrics_data]
    assert len(rows) == 2 * n and sum(m.skipped for m in rows) == n
    assert [m.score for m in rows if not m.skipped] == [0.5] * n
    return held / len(rows), peak / len(rows)


def test_bytes_per_result_row_stay_under_a_ceiling() -> None:
    held, peak = _bytes_per_row(300)
    # Measured at 300 cases (600 rows) on CPython 3.11: the eager runner (every metric copy planned up front and
    # alive to the end, verbose logs in every row, a dict entry per row) 877 B held / 1,555 B peak per row; now
    # 602 / 686; since rows keep their per-statement verdicts (for the HTML report's details) 800 / 931, measured
    # again 893 / 1,053 before TestResult got skipped_metrics, span_type and trace_status (three attributes per
    # test case, two rows here: 906-910 / 1,090). The ceilings sit above, with room for interpreter and library
    # noise.
    assert held < 940, f"{held:.0f} B held per row"
    assert peak < 1100, f"{peak:.0f} B peak per row"


# --- the console table is printed in chunks ----------------------------------------------------------------------
def _table_result(n: int) -> EvaluationResult:
    rows = lambda i: [  # noqa: E731
        MetricData(
            name=f"M{j}",
            threshold=0.5,
            success=j != 1,
            score=0.8 if j != 1 else 0.2,
            reason=f"reason {i}.{j} " + "x" * 120,
            evaluation_model="judge-1",
        )
        for j in range(3)
    ]
    return EvaluationResult(
        test_results=[
            TestResult(
                name=f"case-{i:05d}", success=False, metrics_data=rows(i), conversational=False, input="q"
            )
            for i in range(n)
        ]
    )


class _Discard(io.TextIOBase):
    def write(self, s: str) -> int:
        return len(s)


def test_long_result_table_lists_every_row_once_under_one_header() -> None:
    text = render_results(_table_result(2 * TABLE_CHUNK + 50), width=200)
    table, details = text.split("Failing test cases", 1)
    for i in range(2 * TABLE_CHUNK + 50):
        assert table.count(f"case-{i:05d}") == 1
    assert table.count("Test results (all)") == 1
    assert table.count("Reason / error") == 1
    assert table.count("reason ") == 3 * (2 * TABLE_CHUNK + 50)
    # the excerpts under the table stop at FAILING_DETAILS test cases
    assert details.count("FAIL case-") == FAILING_DETAILS
    assert f"... and {2 * TABLE_CHUNK + 50 - FAILING_DETAILS} more failing test cases" in details
    assert "0/250 test cases passed, 250 failed, 0 errored, 0 skipped; rows: 500 passed, 250 failed" in text


def test_printing_the_table_keeps_a_flat_peak(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", _Discard())
    print_results(_table_result(5))  # imports outside the measurement

    def peak(n: int) -> int:
        result = _table_result(n)
        gc.collect()
        tracemalloc.start(1)
        try:
            base = tracemalloc.get_traced_memory()[0]
            print_results(result)
            return tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()

    small, large = peak(100), peak(400)
    # One rich table of every row took ~24 KB per test case at once (400 cases: ~9.6 MiB); in chunks of
    # TABLE_CHUNK test cases the peak no longer grows with N.
    assert large < 5 * 2**20, f"{large / 2**20:.1f} MiB"
    assert large < 1.5 * small + 2**20, (small, large)
