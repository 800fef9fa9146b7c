"""Ctrl-C during ``evaluate()`` raises ``KeyboardInterrupt`` within a second or two, from plain sync code and from
inside a running event loop (where the run is on a worker thread), and the rows finished before it stay in the
result cache. Each case is a real subprocess sent SIGINT once its first rows are cached."""

from __future__ import annotations

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
    import asyncio, sys, threading
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    MODE, RUN_ASYNC, CACHE = sys.argv[1], sys.argv[2] != "sync", sys.argv[3]
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
                        display_config=DisplayConfig(show_indicator=False, print_results=False),
                        cache_config=CacheConfig(write_cache=True, cache_path=CACHE),
                        error_config=ErrorConfig(ignore_errors=True))

    async def main():  # evaluate() called from async code, as in Jupyter or a FastAPI handler
        return run()

    try:
        asyncio.run(main()) if MODE == "loop" else run()
    except KeyboardInterrupt:
        print("INTERRUPTED", flush=True)
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
