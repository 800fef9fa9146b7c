"""One Ctrl-C during a large ``evaluate()`` called from a running event loop: which report files are written.

For each source tree given, a fresh process runs ``evaluate()`` inside ``asyncio.run`` (as from Jupyter or a
FastAPI handler) over ``--rows`` test cases, all but 10 of them fast, with a results folder; once the fast rows are
cached it gets one SIGINT. The table gives, per tree, the seconds from the signal to the end of the process and the
files left in the results folder (a ``.tmp`` file is a report that was not finished).

    python bench/interrupt_loop.py                                  # this checkout, 6,000 rows
    python bench/interrupt_loop.py --trees /work/main/src,src       # before / after
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import LLMTestCase

    class Slow(BaseMetric):
        threshold = 0.5
        def measure(self, tc, *a, **k):
            raise NotImplementedError
        async def a_measure(self, tc, *a, **k):
            if tc.input.startswith("slow"):
                await asyncio.sleep(600)
            self.score, self.reason, self.success = 1.0, "ok " * 20, True
            return 1.0

    n = int(sys.argv[1])
    cases = [LLMTestCase(input=f"fast{i} " + "word " * 30, actual_output="a " * 50) for i in range(n - 10)]
    cases += [LLMTestCase(input=f"slow{i}", actual_output="a") for i in range(10)]

    async def main():
        return evaluate(cases, [Slow()], async_config=AsyncConfig(max_concurrent=20),
                        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder="runs"),
                        cache_config=CacheConfig(write_cache=True, cache_path="cache.sqlite"),
                        error_config=ErrorConfig(ignore_errors=True))

    asyncio.run(main())
    """
)


def _cached(path: Path) -> int:
    try:
        with sqlite3.connect(path, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM metric_rows").fetchone()[0])
    except sqlite3.Error:
        return 0


def run_one(src: str, rows: int) -> tuple[float, list[str]]:
    """Seconds from the SIGINT to the end of the process, and the files left in the results folder."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "big.py").write_text(SCRIPT)
        env = {
            **os.environ,
            "PYTHONPATH": src,
            "DEEPEVAL_DISABLE_DOTENV": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        proc = subprocess.Popen(
            [sys.executable, "big.py", str(rows)],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 600
            while _cached(work / "cache.sqlite") < rows - 10 and time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise SystemExit(f"{src}: the run ended before its rows were cached")
                time.sleep(0.5)
            time.sleep(1.0)  # the slow rows are in flight
            sent = time.monotonic()
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=300)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        runs = work / "runs"
        left = sorted(f"{p.name} ({p.stat().st_size:,} B)" for p in runs.iterdir()) if runs.exists() else []
        return took, left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", default=str(REPO / "src"), help="comma-separated source folders")
    parser.add_argument("--rows", type=int, default=6000)
    args = parser.parse_args(argv)
    print("| tree | seconds after SIGINT | files left in the results folder |\n|---|---|---|")
    for src in args.trees.split(","):
        took, left = run_one(str(Path(src).resolve()), args.rows)
        print(f"| {src} | {took:.1f} | {'; '.join(left) or 'none'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
