"""Where the memory of one scale run goes: tracemalloc snapshots of our ``evaluate()`` on the scale workload.

Runs the :mod:`bench.scale` workload (N test cases x [AR, CR, KR], half RAG, half 6-turn conversations) in this
process against the loopback judge (started as a separate process so its allocations are not traced), with
tracemalloc on, and prints the traced bytes grouped by allocation traceback at three points:

* ``before``: the test cases are built, ``evaluate()`` has not started;
* ``mid``: when 90% of the metric rows are final (what the run holds per case while it is still going);
* ``after``: ``evaluate()`` returned and only the :class:`EvaluationResult` (and the inputs) are alive.

Also prints the tracemalloc peak, bytes per result row held after the run, and the process peak RSS.

Usage::

    python bench/scale_memory.py --n 1000 --latency 0.02 [--frames 25] [--top 25]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scale import METRICS, mixed_cases

BENCH = Path(__file__).resolve().parent


def start_judge(latency: float) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The loopback judge in its own process; returns it and the settings that point a client at it."""
    proc = subprocess.Popen(
        [sys.executable, str(BENCH / "judge_server.py"), "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    env: dict[str, str] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("export "):
            key, _, value = line[len("export ") :].strip().partition("=")
            env[key] = value
        elif line.startswith("#"):
            break
    return proc, env


def _where(tb: tracemalloc.Traceback) -> str:
    """A label for one allocation: ``import`` for module loading, else the innermost frame in our code (``src/``
    or ``bench/``) plus the innermost frame of all when that is a library's."""
    frames = list(tb)  # most recent call last
    if any("importlib._bootstrap" in f.filename for f in frames):
        return "(imports)"
    ours = [f for f in frames if "/src/deepeval/" in f.filename or "/bench/" in f.filename]
    inner = frames[-1]
    if not ours:
        return f"{_short(inner.filename)}:{inner.lineno}"
    own = ours[-1]
    label = f"{_short(own.filename)}:{own.lineno}"
    if own is not inner:
        label += f" -> {_short(inner.filename)}:{inner.lineno}"
    return label


def _short(path: str) -> str:
    for marker in ("/src/", "/site-packages/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def grouped(snapshot: tracemalloc.Snapshot) -> dict[str, list[int]]:
    """Traced ``[bytes, blocks]`` per :func:`_where` label."""
    out: dict[str, list[int]] = {}
    for stat in snapshot.statistics("traceback"):
        slot = out.setdefault(_where(stat.traceback), [0, 0])
        slot[0] += stat.size
        slot[1] += stat.count
    return out


def top(snapshot: tracemalloc.Snapshot, base: tracemalloc.Snapshot | None, n: int, per: int) -> str:
    """The ``n`` biggest labels of ``snapshot`` (minus ``base``), with bytes per unit of ``per`` (e.g. rows)."""
    now = grouped(snapshot)
    then = grouped(base) if base is not None else {}
    diff = {k: (v[0] - then.get(k, [0, 0])[0], v[1] - then.get(k, [0, 0])[1]) for k, v in now.items()}
    total = sum(d[0] for d in diff.values())
    lines = [f"total {total / 2**20:+.2f} MiB = {total / per:+.0f} B per unit"]
    for label, (size, count) in sorted(diff.items(), key=lambda kv: -abs(kv[1][0]))[:n]:
        lines.append(f"{size / 2**20:+8.2f} MiB {size / per:+7.0f} B/unit {count:+8d} blocks  {label}")
    return "\n".join(lines)


def _rss_mib() -> float:
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_run(args: argparse.Namespace) -> int:
    """The same run without tracemalloc: RSS as rows finish, peak RSS and RSS with only the result alive."""
    judge, env = start_judge(args.latency)
    try:
        os.environ.update(env)
        os.environ["DEEPEVAL_EVAL_MODE"] = "llm"
        os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] = "1"
        from bench._eval_worker import _build_case, _build_metric
        from deepeval import evaluate
        from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, display

        rows_total = args.n * len(METRICS)
        curve: list[tuple[int, float]] = []
        advance = display.Progress.advance

        def counting_advance(self: Any, row: Any) -> None:
            advance(self, row)
            done = sum(self.counts.values())
            if done % max(1, rows_total // 10) == 0:
                curve.append((done, _rss_mib()))

        display.Progress.advance = counting_advance  # type: ignore[method-assign]
        cases = [_build_case("mixed", r) for r in mixed_cases(args.n)]
        metrics = [_build_metric(m, "llm", True) for m in METRICS]
        gc.collect()
        rss0 = _rss_mib()
        t0 = time.monotonic()
        result = evaluate(
            cases,
            metrics,
            async_config=AsyncConfig(max_concurrent=args.concurrency),
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False, use_cache=False),
            error_config=ErrorConfig(ignore_errors=True),
        )
        wall = time.monotonic() - t0
        peak = _peak_mib()
        gc.collect()
        rss1 = _rss_mib()
    finally:
        judge.terminate()
        judge.wait()
    rows = sum(len(t.metrics_data) for t in result.test_results)
    print(f"# N={args.n}: {rows} rows, wall {wall:.1f} s")
    print(f"RSS before {rss0:.0f} MiB, peak {peak:.0f} MiB, after (result held, gc) {rss1:.0f} MiB")
    print("RSS while rows finish: " + ", ".join(f"{d}: {m:.0f}" for d, m in curve) + " MiB")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="test cases (default 1000)")
    ap.add_argument("--latency", type=float, default=0.02, help="loopback judge latency, s (default 0.02)")
    ap.add_argument(
        "--frames", type=int, default=25, help="traceback frames kept per allocation (default 25)"
    )
    ap.add_argument("--top", type=int, default=25, help="groups shown per snapshot (default 25)")
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument(
        "--rss", action="store_true", help="no tracemalloc: RSS every 10%% of rows, peak RSS, RSS after"
    )
    args = ap.parse_args(argv)
    if args.rss:
        return rss_run(args)

    judge, env = start_judge(args.latency)
    try:
        os.environ.update(env)
        os.environ["DEEPEVAL_EVAL_MODE"] = "llm"
        os.environ["DEEPEVAL_TELEMETRY_OPT_OUT"] = "1"
        tracemalloc.start(args.frames)
        from bench._eval_worker import _build_case, _build_metric
        from deepeval import evaluate
        from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, display

        rows_total = args.n * len(METRICS)
        mid: dict[str, Any] = {}
        curve: list[tuple[int, int]] = []
        advance = display.Progress.advance

        def counting_advance(self: Any, row: Any) -> None:
            advance(self, row)
            done = sum(self.counts.values())
            if done % max(1, rows_total // 10) == 0:
                curve.append((done, tracemalloc.get_traced_memory()[0]))
            if done == rows_total:
                mid["last"] = tracemalloc.take_snapshot()
            if done == int(rows_total * 0.9) and "snap" not in mid:
                mid["raw"] = tracemalloc.take_snapshot()
                gc.collect()
                mid["snap"] = tracemalloc.take_snapshot()

        display.Progress.advance = counting_advance  # type: ignore[method-assign]
        cases = [_build_case("mixed", r) for r in mixed_cases(args.n)]
        metrics = [_build_metric(m, "llm", True) for m in METRICS]
        gc.collect()
        before = tracemalloc.take_snapshot()
        tracemalloc.reset_peak()
        cur0 = tracemalloc.get_traced_memory()[0]
        t0 = time.monotonic()
        result = evaluate(
            cases,
            metrics,
            async_config=AsyncConfig(max_concurrent=args.concurrency),
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False, use_cache=False),
            error_config=ErrorConfig(ignore_errors=True),
        )
        wall = time.monotonic() - t0
        peak = tracemalloc.get_traced_memory()[1]
        gc.collect()
        after = tracemalloc.take_snapshot()
        cur1 = tracemalloc.get_traced_memory()[0]
    finally:
        judge.terminate()
        judge.wait()
    rows = sum(len(t.metrics_data) for t in result.test_results)
    measured = sum(1 for t in result.test_results for m in t.metrics_data if not m.skipped)
    errors = sum(1 for t in result.test_results for m in t.metrics_data if m.error)
    print(f"# N={args.n}: {rows} rows ({measured} measured, {errors} errors), wall {wall:.1f} s")
    print(
        f"traced before evaluate {cur0 / 2**20:.1f} MiB; peak during evaluate +{(peak - cur0) / 2**20:.1f} MiB;"
    )
    print(
        f"held after (result) +{(cur1 - cur0) / 2**20:.1f} MiB = {(cur1 - cur0) / measured:.0f} B per measured row; "
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (tracemalloc inflates it)"
    )
    print(
        "traced memory while rows finish (no gc forced): "
        + ", ".join(f"{d}: +{(m - cur0) / 2**20:.1f}" for d, m in curve)
        + " MiB"
    )
    if "last" in mid:
        print(
            "\n## last row final (no gc) minus before, per test case\n"
            + top(mid["last"], before, args.top, args.n)
        )
    print("\n## before evaluate (inputs), per test case\n" + top(before, None, 8, args.n))
    if "snap" in mid:
        print(
            "\n## mid-run (90% of rows final, after gc) minus before, per test case\n"
            + top(mid["snap"], before, args.top, args.n)
        )
    if "raw" in mid:
        print(
            "\n## mid-run garbage (before gc minus after gc), per test case\n"
            + top(mid["raw"], mid["snap"], 10, args.n)
        )
    print(
        "\n## after evaluate (result held) minus before, per test case\n"
        + top(after, before, args.top, args.n)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
