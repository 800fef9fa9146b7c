"""``measure_timeout`` ends the call: a measure past its deadline is abandoned (never waited for), so
``evaluate()`` returns about when the last measure finished or timed out, with every finished row kept (and
cached) and the stuck one marked with a timeout error. Also: a thread left blocked does not hold the interpreter
at exit."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.cache import ResultCache
from deepeval.metrics.base_metric import BaseMetric
from deepeval.test_case import LLMTestCase

QUIET = DisplayConfig(show_indicator=False, print_results=False)
TIMEOUT = 0.3


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at teardown so the blocked threads of a test end (the test itself must not wait for them)."""
    event = threading.Event()
    yield event
    event.set()


class BlockingMetric(BaseMetric):
    """Scores 1.0, except on input "stuck": there the sync ``measure`` blocks its thread until ``release`` is set
    (up to 60 s). ``a_measure`` runs ``measure`` in a thread (``asyncio.to_thread``), as a custom metric wrapping
    sync code does; with ``ignore_cancel`` its ``a_measure`` instead swallows cancellation and keeps waiting."""

    def __init__(self, release: threading.Event, ignore_cancel: bool = False) -> None:
        self.threshold = 0.5
        self.release = release
        self.ignore_cancel = ignore_cancel

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        if test_case.input == "stuck":
            self.release.wait(60)
        self.score, self.reason, self.success = 1.0, "fine", True
        return 1.0

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        if self.ignore_cancel and test_case.input == "stuck":
            while not self.release.is_set():
                try:
                    await asyncio.sleep(0.05)
                except asyncio.CancelledError:
                    continue  # a badly behaved metric: cancellation is swallowed
        return await asyncio.to_thread(self.measure, test_case)


def _cases() -> list[LLMTestCase]:
    return [LLMTestCase(input=i, actual_output="a") for i in ("q0", "stuck", "q2", "q3")]


def _evaluate(metric: BaseMetric, run_async: bool, cache_path: str) -> Any:
    return evaluate(
        _cases(),
        [metric],
        async_config=AsyncConfig(run_async=run_async, measure_timeout=TIMEOUT),
        display_config=QUIET,
        cache_config=CacheConfig(write_cache=True, use_cache=True, cache_path=cache_path),
        error_config=ErrorConfig(ignore_errors=True),
    )


def _check(result: Any, cache_path: str, elapsed: float) -> None:
    assert elapsed < 2.5, f"evaluate() took {elapsed:.1f} s for a {TIMEOUT} s measure_timeout"
    rows = [t.metrics_data[0] for t in result.test_results]
    assert [r.status for r in rows] == ["passed", "error", "passed", "passed"]
    assert [r.score for r in rows] == [1.0, None, 1.0, 1.0]
    assert rows[1].error == f"TimeoutError: measure did not finish within {TIMEOUT} s"
    with ResultCache(cache_path) as cache:
        assert cache.count() == 3  # the finished rows, not the timed-out one


@pytest.mark.parametrize("run_async", [False, True], ids=["sync_measure", "a_measure_to_thread"])
def test_measure_timeout_returns_without_waiting_for_a_blocked_thread(
    release: threading.Event, tmp_path: Any, run_async: bool
) -> None:
    cache_path = str(tmp_path / "c.sqlite")
    t0 = time.perf_counter()
    result = _evaluate(BlockingMetric(release), run_async, cache_path)
    _check(result, cache_path, time.perf_counter() - t0)


def test_measure_timeout_abandons_an_a_measure_that_swallows_cancellation(
    release: threading.Event, tmp_path: Any
) -> None:
    cache_path = str(tmp_path / "c.sqlite")
    t0 = time.perf_counter()
    result = _evaluate(BlockingMetric(release, ignore_cancel=True), True, cache_path)
    _check(result, cache_path, time.perf_counter() - t0)


def test_measure_timeout_inside_a_running_loop_returns_without_waiting(
    release: threading.Event, tmp_path: Any
) -> None:
    cache_path = str(tmp_path / "c.sqlite")

    async def main() -> Any:  # evaluate() from async code (Jupyter, FastAPI) runs on a worker thread
        return _evaluate(BlockingMetric(release), False, cache_path)

    t0 = time.perf_counter()
    result = asyncio.run(main())
    _check(result, cache_path, time.perf_counter() - t0)


_EXIT_SCRIPT = textwrap.dedent(
    """
    import threading, time
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class Stuck(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            threading.Event().wait(120)  # never released
        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

    r = evaluate([LLMTestCase(input="x", actual_output="y")], [Stuck()],
                 async_config=AsyncConfig(run_async=False, measure_timeout=0.3),
                 display_config=DisplayConfig(show_indicator=False, print_results=False),
                 cache_config=CacheConfig(write_cache=False), error_config=ErrorConfig(ignore_errors=True))
    print("ROW", r.test_results[0].metrics_data[0].error, flush=True)
    """
)


def test_interpreter_exit_is_not_blocked_by_an_abandoned_measure_thread(tmp_path: Any) -> None:
    script = tmp_path / "stuck.py"
    script.write_text(_EXIT_SCRIPT)
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    elapsed = time.perf_counter() - t0
    assert done.returncode == 0, done.stderr
    assert "ROW TimeoutError: measure did not finish within 0.3 s" in done.stdout
    assert elapsed < 15, f"the process took {elapsed:.1f} s to exit"


def test_measure_timeout_fires_while_the_embedded_extractor_is_busy_on_a_long_output(
    monkeypatch: pytest.MonkeyPatch, release: threading.Event
) -> None:
    """The embedded extractor's rules are CPU-bound (segmenting a 300 KB output takes longer than any deadline):
    they run off the event loop, so the deadline fires, the busy row times out and the other row is scored."""
    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.models.embedded.extraction import DeterministicExtractor

    busy = "a. " * 1000
    original = DeterministicExtractor.statements_sync

    def statements_sync(self: DeterministicExtractor, text: str) -> list[str]:
        if text == busy:
            release.wait(60)  # stands in for seconds of segmenting: the calling thread is held throughout
        return original(self, text)

    monkeypatch.setattr(DeterministicExtractor, "statements_sync", statements_sync)
    healthy_case = LLMTestCase(input="Is it open?", actual_output="It is open.")
    options: dict[str, Any] = {
        "display_config": QUIET,
        "cache_config": CacheConfig(write_cache=False, use_cache=False),
        "error_config": ErrorConfig(ignore_errors=True),
    }
    evaluate(
        [healthy_case], [AnswerRelevancyMetric()], **options
    )  # the judge is loaded before the clock starts
    start = time.monotonic()
    result = evaluate(
        [LLMTestCase(input="q?", actual_output=busy), healthy_case],
        [AnswerRelevancyMetric()],
        async_config=AsyncConfig(measure_timeout=2),
        **options,
    )
    assert time.monotonic() - start < 8
    stuck, healthy = (t.metrics_data[0] for t in result.test_results)
    assert stuck.score is None and stuck.error is not None and "TimeoutError" in stuck.error
    assert healthy.error is None and healthy.score == 1.0
