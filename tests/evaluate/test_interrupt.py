"""Ctrl-C during ``evaluate()`` raises ``KeyboardInterrupt`` within a second or two, from plain sync code and from
inside a running event loop (where the run is on a worker thread), and the rows finished before it stay in the
result cache. Each case is a real subprocess sent SIGINT once its first rows are cached."""

from __future__ import annotations

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

_SCRIPT = textwrap.dedent(
    """
    import asyncio, os, sys, threading
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    MODE, RUN_ASYNC, CACHE = sys.argv[1], sys.argv[2] != "sync", sys.argv[3]
    RESULTS = sys.argv[4] if len(sys.argv) > 4 else None
    PRINT = os.environ.get("PRINT_RESULTS") == "1"
    SWALLOW = sys.argv[2] == "swallow"  # a badly behaved a_measure that swallows its cancellation

    class Slow(BaseMetric):
        threshold = 0.5
        def _done(self):
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0
        def measure(self, tc, *a, **k):
            if tc.input.startswith("slow"):
                threading.Event().wait(120)  # a blocked thread: only abandoning it ends the call
            return self._done()
        async def a_measure(self, tc, *a, **k):
            if tc.input.startswith("slow"):
                for _ in range(1200):
                    try:
                        await asyncio.sleep(0.1)
                    except asyncio.CancelledError:
                        if not SWALLOW:
                            raise
            return self._done()

    cases = [LLMTestCase(input=f"fast{i}", actual_output="a") for i in range(3)]
    cases += [LLMTestCase(input=f"slow{i}", actual_output="a") for i in range(3)]

    def run():
        return evaluate(cases, [Slow()], async_config=AsyncConfig(run_async=RUN_ASYNC, max_concurrent=2),
                        display_config=DisplayConfig(show_indicator=False, print_results=PRINT,
                                                     results_folder=RESULTS),
                        cache_config=CacheConfig(write_cache=True, cache_path=CACHE),
                        error_config=ErrorConfig(ignore_errors=True))

    async def main():  # evaluate() called from async code, as in Jupyter or a FastAPI handler
        return run()

    try:
        asyncio.run(main()) if MODE == "loop" else run()
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
        raise
    except SystemExit as exc:
        print(f"EXIT {exc.code}", flush=True)
        raise
    print("FINISHED", flush=True)
    """
)


def _cached_rows(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0])
    except sqlite3.Error:  # the table is not there yet
        return 0


@pytest.mark.parametrize(
    ("mode", "run_async"),
    [("sync", "async"), ("sync", "sync"), ("sync", "swallow"), ("loop", "async"), ("loop", "sync")],
    ids=[
        "sync-code-a_measure",
        "sync-code-measure",
        "sync-code-a_measure-swallowing-cancellation",
        "running-loop-a_measure",
        "running-loop-measure",
    ],
)
def test_ctrl_c_raises_keyboard_interrupt_promptly_and_keeps_finished_rows_cached(
    tmp_path: Path, mode: str, run_async: str
) -> None:
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    cache = tmp_path / "cache.sqlite"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, str(script), mode, run_async, str(cache)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while _cached_rows(cache) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert _cached_rows(cache) == 3, "the three fast rows were never cached"
        time.sleep(0.2)  # the slow rows are now in flight
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "INTERRUPTED" in out and "FINISHED" not in out, (out, err)
    assert "KeyboardInterrupt" in err
    assert proc.returncode != 0
    assert took < 3.0, f"Ctrl-C took {took:.1f} s to end the process"
    assert _cached_rows(cache) == 3


def _interrupt(
    tmp_path: Path, args: list[str], sig: int, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """Start ``args``, wait until the three fast rows are cached, send ``sig``; (return code, stdout, stderr)."""
    cache = tmp_path / "cache.sqlite"
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env
    )
    try:
        deadline = time.monotonic() + 60
        while _cached_rows(cache) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert _cached_rows(cache) == 3, "the three fast rows were never cached"
        time.sleep(0.2)  # the slow rows are now in flight
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err


def _rows_of(doc: dict) -> list[tuple[str, float | None, str | None]]:
    return [(t["input"], m["score"], m["error"]) for t in doc["test_results"] for m in t["metrics_data"]]


INTERRUPTED_ROW = "interrupted: the run was stopped before this row finished"


@pytest.mark.regression
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("mode", ["sync", "loop"], ids=["sync-code", "running-loop"])
def test_interrupted_run_writes_the_rows_it_finished_marked_interrupted(
    tmp_path: Path, sig: int, mode: str
) -> None:
    """SIGINT or SIGTERM: the run is cancelled, the rows it finished are written to the JSON/HTML export with the
    run marked ``extras.interrupted``; the rows it did not finish are there as errors saying so (no row is dropped).
    SIGINT still ends in KeyboardInterrupt, SIGTERM in exit status 143 (128 + 15)."""
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path, [sys.executable, str(script), mode, "async", str(tmp_path / "cache.sqlite"), str(runs)], sig
    )
    if sig == signal.SIGINT:
        assert "INTERRUPTED" in out and "KeyboardInterrupt" in err and code != 0, (out, err)
    else:
        assert "EXIT 143" in out and code == 143, (code, out, err)
    assert "FINISHED" not in out
    [export] = sorted(runs.glob("*.json"))
    doc = json.loads(export.read_text(encoding="utf-8"))
    name = signal.Signals(sig).name
    assert doc["extras"]["interrupted"] == f"{name}: 3 of 6 rows finished"
    assert _rows_of(doc) == [(f"fast{i}", 1.0, None) for i in range(3)] + [
        (f"slow{i}", None, INTERRUPTED_ROW) for i in range(3)
    ]
    assert len(list(runs.glob("*.html"))) == 1
    assert (
        f"deepeval: run stopped by {name}: 3 of 6 rows finished; written to {export} (deepeval view)" in err
    )


@pytest.mark.regression
def test_interrupted_run_without_a_results_folder_is_kept_for_deepeval_view(tmp_path: Path) -> None:
    """A run that prints its results and has no results folder keeps its finished rows in ``.deepeval/runs/`` when
    interrupted, as a finished run does (they were lost: 'no results folder, so no report was written')."""
    script = tmp_path / "interrupt_me.py"
    script.write_text(_SCRIPT)
    code, out, err = _interrupt(
        tmp_path,
        [sys.executable, str(script), "sync", "async", str(tmp_path / "cache.sqlite")],
        signal.SIGINT,
        env={"PRINT_RESULTS": "1"},
    )
    assert "INTERRUPTED" in out and code != 0, (out, err)
    [kept] = sorted((tmp_path / ".deepeval" / "runs").glob("*.json"))
    doc = json.loads(kept.read_text(encoding="utf-8"))
    assert doc["extras"]["interrupted"] == "SIGINT: 3 of 6 rows finished"
    assert _rows_of(doc) == [(f"fast{i}", 1.0, None) for i in range(3)] + [
        (f"slow{i}", None, INTERRUPTED_ROW) for i in range(3)
    ]
    assert f"3 of 6 rows finished; written to {kept.resolve()} (deepeval view)" in err


@pytest.mark.regression
def test_cli_evaluate_sigterm_writes_the_csv_of_the_finished_rows(tmp_path: Path) -> None:
    (tmp_path / "slow_metric.py").write_text(
        textwrap.dedent(
            """
            import asyncio
            from deepeval.metrics.base_metric import BaseMetric
            class Slow(BaseMetric):
                def __init__(self, threshold=0.5):
                    self.threshold = threshold
                def measure(self, tc, *a, **k):
                    raise NotImplementedError
                async def a_measure(self, tc, *a, **k):
                    if tc.input.startswith("slow"):
                        await asyncio.sleep(120)
                    self.score, self.reason, self.success = 1.0, "ok", True
                    return 1.0
            """
        )
    )
    cases = [{"input": f"fast{i}", "actual_output": "a"} for i in range(3)]
    cases += [{"input": f"slow{i}", "actual_output": "a"} for i in range(3)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    args = [
        sys.executable,
        "-c",
        "import sys; from deepeval.cli.main import app; sys.argv[0] = 'deepeval'; app()",
    ]
    args += ["evaluate", "cases.jsonl", "-m", "slow_metric:Slow", "--no-progress", "--csv", "rows.csv"]
    env = {"DEEPEVAL_CACHE_PATH": str(tmp_path / "cache.sqlite"), "PYTHONPATH": os.pathsep.join(sys.path)}
    code, out, err = _interrupt(tmp_path, [*args, "--max-concurrent", "2"], signal.SIGTERM, env)
    assert code == 143, (out, err)
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["test_case"], r["score"], r["error"]) for r in rows] == [
        (f"test_case_{i}", "1.0", "") for i in range(3)
    ] + [(f"test_case_{i}", "", INTERRUPTED_ROW) for i in range(3, 6)]
    assert "rows: 6 (the run was interrupted: 3 of 6 rows finished)" in out


_ITERATOR_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from deepeval.dataset import EvaluationDataset, Golden
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.tracing import observe

    class Slow(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            raise NotImplementedError
        async def a_measure(self, tc, *a, **k):
            if "slow" in tc.input:
                await asyncio.sleep(120)
            self.score, self.reason, self.success = 1.0, "ok", True
            return 1.0

    @observe(metrics=[Slow()])
    def app(text):
        return "a"

    goldens = [Golden(input=f"fast{i}") for i in range(3)] + [Golden(input=f"slow{i}") for i in range(3)]
    dataset = EvaluationDataset(goldens=goldens)
    try:
        for golden in dataset.evals_iterator(
            async_config=AsyncConfig(max_concurrent=2),
            display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=sys.argv[2]),
            cache_config=CacheConfig(write_cache=True, cache_path=sys.argv[1]),
        ):
            app(golden.input)
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
        raise
    except SystemExit as exc:
        print(f"EXIT {exc.code}", flush=True)
        raise
    print("FINISHED", flush=True)
    """
)


@pytest.mark.regression
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_evals_iterator_writes_the_rows_it_finished(tmp_path: Path, sig: int) -> None:
    """Ctrl-C or SIGTERM in evals_iterator's measuring phase keeps the finished span rows, as evaluate() does
    (it wrote and printed nothing: issue 42, item 1)."""
    script = tmp_path / "iterate_me.py"
    script.write_text(_ITERATOR_SCRIPT)
    runs = tmp_path / "runs"
    code, out, err = _interrupt(
        tmp_path, [sys.executable, str(script), str(tmp_path / "cache.sqlite"), str(runs)], sig
    )
    assert "FINISHED" not in out and code != 0, (code, out, err)
    [export] = sorted(runs.glob("*.json"))
    doc = json.loads(export.read_text(encoding="utf-8"))
    name = signal.Signals(sig).name
    assert doc["extras"]["interrupted"] == f"{name}: 3 of 6 rows finished"
    assert doc["extras"]["component_level"] is True
    rows = [(m["score"], m["error"]) for t in doc["test_results"] for m in t["metrics_data"]]
    assert sorted(rows, key=repr) == [(1.0, None)] * 3 + [(None, INTERRUPTED_ROW)] * 3
    assert f"deepeval: run stopped by {name}: 3 of 6 rows finished; written to {export}" in err
