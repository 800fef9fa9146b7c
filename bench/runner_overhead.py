"""Benchmark of the runner itself (not the metrics): scheduling overhead, concurrency scaling against a loopback
judge with fixed latency, result-cache throughput, and the cost of the pytest plugin when unused.

1. overhead: N test cases x 3 instant metrics (no judge): rows/s and microseconds of runner time per row.
2. concurrency: 200 measures, each one request to the loopback OpenAI-compatible server with ``--latency``
   (default 50 ms); wall time for max_concurrent in 1, 5, 20, 50 against the ideal ``ceil(200 / c) * latency``.
3. cache: the same run with write_cache (rows/s written), then use_cache (rows/s served).
4. plugin: ``pytest -q`` over 300 trivial tests with the plugin loaded vs ``-p no:deepeval`` (median of 3).

Usage::

    python bench/runner_overhead.py            # about half a minute on 2 cores
    python bench/runner_overhead.py --rows 3000 --latency 0.05
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")

import httpx

from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig
from deepeval.metrics.base_metric import BaseMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import OpenAIChatServer

QUIET = DisplayConfig(show_indicator=False, print_results=False)


class Instant(BaseMetric):
    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return self.name

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), "name": self.name}

    async def a_measure(self, tc: Any, *a: Any, **k: Any) -> float:
        self.score, self.reason, self.success = 1.0, "ok", True
        return 1.0

    def measure(self, tc: Any, *a: Any, **k: Any) -> float:
        raise NotImplementedError


class OneRequest(BaseMetric):
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.clients: dict[int, httpx.AsyncClient] = {}
        self.resets = 0

    async def a_measure(self, tc: Any, *a: Any, **k: Any) -> float:
        key = id(asyncio.get_running_loop())
        client = self.clients.get(key)
        if client is None:  # one client per event loop (creating one costs ~30 ms of CPU)
            client = self.clients[key] = httpx.AsyncClient(
                timeout=30, limits=httpx.Limits(max_connections=100)
            )
        body = {"model": "m", "messages": [{"role": "user", "content": tc.input}]}
        for attempt in range(5):
            try:
                resp = await client.post(f"{self.base_url}/chat/completions", json=body)
                break
            except httpx.TransportError:  # the loopback server's listen backlog is small: retry like a client
                self.resets += 1
                if attempt == 4:
                    raise
        resp.raise_for_status()
        self.score, self.reason, self.success = 1.0, "ok", True
        return 1.0

    def measure(self, tc: Any, *a: Any, **k: Any) -> float:
        raise NotImplementedError


def cases(n: int) -> list[LLMTestCase]:
    return [LLMTestCase(input=f"question {i}", actual_output=f"answer {i}") for i in range(n)]


def bench_overhead(n_cases: int) -> dict[str, Any]:
    metrics = [Instant("a"), Instant("b"), Instant("c")]
    t0 = time.perf_counter()
    evaluate(cases(n_cases), metrics, display_config=QUIET, cache_config=CacheConfig(write_cache=False))
    wall = time.perf_counter() - t0
    rows = n_cases * 3
    return {
        "rows": rows,
        "wall_s": round(wall, 3),
        "rows_per_s": round(rows / wall),
        "us_per_row": round(1e6 * wall / rows, 1),
    }


def bench_concurrency(latency: float, n: int = 200) -> list[dict[str, Any]]:
    out = []
    with OpenAIChatServer(latency=latency) as server:
        for c in (1, 5, 20, 50):
            metric = OneRequest(server.base_url)
            server.reset_counters()
            t0 = time.perf_counter()
            evaluate(
                cases(n),
                [metric],
                async_config=AsyncConfig(max_concurrent=c),
                display_config=QUIET,
                cache_config=CacheConfig(write_cache=False),
            )
            wall = time.perf_counter() - t0
            ideal = math.ceil(n / c) * latency
            out.append(
                {
                    "max_concurrent": c,
                    "wall_s": round(wall, 3),
                    "ideal_s": round(ideal, 3),
                    "ratio": round(wall / ideal, 2),
                    "peak_in_flight": server.counters.max_in_flight,
                    "connection_resets": metric.resets,
                }
            )
    return out


def bench_cache(n_cases: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "c.sqlite")
        metrics = [Instant("a"), Instant("b"), Instant("c")]
        t0 = time.perf_counter()
        evaluate(cases(n_cases), metrics, display_config=QUIET, cache_config=CacheConfig(cache_path=path))
        write = time.perf_counter() - t0
        t0 = time.perf_counter()
        r = evaluate(
            cases(n_cases),
            metrics,
            display_config=QUIET,
            cache_config=CacheConfig(cache_path=path, use_cache=True),
        )
        read = time.perf_counter() - t0
        rows = n_cases * 3
        assert r.cache_hits == rows
        return {
            "rows": rows,
            "write_run_rows_per_s": round(rows / write),
            "hit_run_rows_per_s": round(rows / read),
            "file_kib": round(os.path.getsize(path) / 1024),
        }


def bench_plugin(n_tests: int = 300) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "test_many.py").write_text(
            f"import pytest\n\n@pytest.mark.parametrize('i', range({n_tests}))\ndef test_x(i):\n    assert i >= 0\n"
        )

        def once(extra: list[str]) -> float:
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, "test_many.py"],
                cwd=tmp,
                capture_output=True,
                check=True,
            )
            return time.perf_counter() - t0

        with_plugin = statistics.median(once([]) for _ in range(3))
        without = statistics.median(once(["-p", "no:deepeval"]) for _ in range(3))
    return {
        "tests": n_tests,
        "with_plugin_s": round(with_plugin, 3),
        "without_plugin_s": round(without, 3),
        "difference_s": round(with_plugin - without, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--rows", type=int, default=3000, help="rows for the overhead and cache runs (3 metrics each)"
    )
    ap.add_argument("--latency", type=float, default=0.05, help="loopback judge latency in seconds")
    args = ap.parse_args()
    n_cases = max(1, args.rows // 3)
    report = {
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "overhead": bench_overhead(n_cases),
        "concurrency": bench_concurrency(args.latency),
        "cache": bench_cache(n_cases),
        "plugin": bench_plugin(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
