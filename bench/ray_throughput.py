"""Throughput of ``evaluate(..., backend="ray")`` with 1 and 2 workers, on the embedded judge and on a loopback
judge server with fixed latency, and the memory of each Ray worker.

Workload (deterministic, :mod:`bench.workloads` via :func:`bench.scale.mixed_cases`): N test cases, half RAG
(AnswerRelevancy + ContextualRelevancy) and half 6-turn conversations (KnowledgeRetention); the inapplicable pairs
are skipped rows, so N test cases give 1.5 N measures.

Judges:

* ``embedded``: nothing configured: hybrid mode on the embedded offline judge (CPU-bound; each worker process
  loads the embedded model once).
* ``loopback``: :class:`bench.judge_server.BenchJudge` (OpenAI-compatible, ``--latency`` s per request, default
  0.2) as the LLM judge in ``llm`` mode, ``max_concurrent`` measures in flight per worker (default 20). The server
  runs in its own process (``python bench/judge_server.py``), so its threads share no interpreter lock with the
  driver or the workers.

For each judge: one warm-up run with 2 workers (starts the worker processes and loads the judge in each; not
timed), then timed runs with 1 and 2 workers, each on its own N test cases (the embedded judge caches per
process, so reusing cases would favour later runs), plus the local backend in this process for reference (with the metrics' judges
resolved before the run, as the Ray driver does). Reported per
run: wall seconds of ``evaluate()``, test cases/s and measures/s, the 2-worker/1-worker throughput ratio, errors,
and the peak RSS of each Ray worker process (MiB, ``ru_maxrss`` as reported by the block results). One local Ray
cluster with ``--cpus`` CPUs (default 2) is started for the whole benchmark (its start-up time is printed apart).

CPU-bound judges (embedded): Ray gives each block ``OMP_NUM_THREADS = num_cpus_per_block`` encoder threads, the
local run uses every core, so on a machine with few cores the local backend can be faster than Ray; Ray pays off
when workers x threads add cores (more nodes) or the judge is remote (I/O-bound).

Usage::

    python bench/ray_throughput.py                       # N=200 embedded, N=400 loopback
    python bench/ray_throughput.py --judges loopback --n-loopback 1000 --latency 0.2
    python bench/ray_throughput.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scale import mixed_cases

REPO = Path(__file__).resolve().parent.parent
CPUS_PER_BLOCK = 1.0  # set from --cpus-per-block


class JudgeProcess:
    """``bench/judge_server.py`` in a subprocess; ``env`` holds the settings it prints, ``stats`` what it printed
    on exit (its request counters)."""

    def __init__(self, latency: float) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(REPO / "bench" / "judge_server.py"), "--latency", str(latency)],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.env: dict[str, str] = {}
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("export "):
                key, _, value = line[len("export ") :].strip().partition("=")
                self.env[key] = value
            elif line.startswith("# serving"):
                break
        if not self.env:
            raise RuntimeError("the loopback judge server did not start")
        self.stats: dict[str, Any] = {}

    def close(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=30)
        try:
            self.stats = json.loads(out[out.index("{") :])
        except ValueError:
            self.stats = {}


def build_cases(n: int) -> list[Any]:
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

    out: list[Any] = []
    for c in mixed_cases(n):
        if c["kind"] == "rag":
            out.append(
                LLMTestCase(
                    input=c["input"],
                    actual_output=c["actual_output"],
                    retrieval_context=c["retrieval_context"],
                )
            )
        else:
            out.append(
                ConversationalTestCase(turns=[Turn(role=t["role"], content=t["content"]) for t in c["turns"]])
            )
    return out


def build_metrics(mode: str | None) -> list[Any]:
    from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric

    return [
        AnswerRelevancyMetric(eval_mode=mode),
        ContextualRelevancyMetric(eval_mode=mode),
        KnowledgeRetentionMetric(eval_mode=mode),
    ]


def one_run(
    cases: list[Any], mode: str | None, backend: str, workers: int, max_concurrent: int
) -> dict[str, Any]:
    from deepeval import evaluate
    from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, RayConfig

    metrics = build_metrics(mode)
    if backend == "local":
        # The Ray driver resolves each metric's judges once before shipping the metrics; do the same here so the
        # local reference is not charged for one judge client (and its TLS context) per test case.
        for m in metrics:
            m.judges()
    t0 = time.perf_counter()
    result = evaluate(
        cases,
        metrics,
        async_config=AsyncConfig(max_concurrent=max_concurrent),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
        backend=backend,
        ray_config=RayConfig(num_workers=workers, num_cpus_per_block=CPUS_PER_BLOCK)
        if backend == "ray"
        else None,
    )
    wall = time.perf_counter() - t0
    rows = result.metric_rows()
    measured = sum(1 for m in rows if not m.skipped)
    errors = [m.error for m in rows if m.error is not None]
    ray_info = result.extras.get("ray", {})
    return {
        "backend": backend,
        "workers": workers if backend == "ray" else None,
        "cases": len(cases),
        "measures": measured,
        "wall_s": round(wall, 3),
        "cases_per_s": round(len(cases) / wall, 2),
        "measures_per_s": round(measured / wall, 2),
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "judges": result.judges,
        "blocks": ray_info.get("blocks"),
        "worker_rss_mb": sorted(w["max_rss_mb"] for w in ray_info.get("workers", {}).values()),
    }


def _worker_rss() -> tuple[int, float]:
    return os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def idle_worker_rss(ray: Any, n: int) -> list[float]:
    """Peak RSS (MiB) of ``n`` Ray worker processes that have run nothing but a trivial task (the baseline that
    deepeval's own footprint adds to)."""
    task = ray.remote(num_cpus=1)(_worker_rss)
    seen: dict[int, float] = {}
    for pid, rss in ray.get([task.remote() for _ in range(n * 4)]):
        seen[pid] = max(rss, seen.get(pid, 0.0))
    return sorted(round(v, 1) for v in seen.values())


def bench_judge(kind: str, n: int, args: argparse.Namespace) -> dict[str, Any]:
    mode = None if kind == "embedded" else "llm"
    conc = args.max_concurrent
    warm_n = max(8, n // 10)
    pool = build_cases(warm_n + 3 * n)  # every run gets its own cases: per-process caches cannot carry over
    warm, slices = pool[:warm_n], [pool[warm_n + k * n : warm_n + (k + 1) * n] for k in range(3)]
    out: dict[str, Any] = {"judge": kind, "n": n, "runs": []}
    try:
        out["warmup_s"] = one_run(warm, mode, "ray", 2, conc)["wall_s"]
        for k, workers in enumerate((1, 2)):
            out["runs"].append(one_run(slices[k], mode, "ray", workers, conc))
        out["runs"].append(one_run(slices[2], mode, "local", 1, conc))
    except Exception as err:  # e.g. the embedded judge is not available in this checkout
        out["unavailable"] = f"{type(err).__name__}: {err}"[:400]
        return out
    one, two = out["runs"][0], out["runs"][1]
    out["ratio_2_over_1"] = round(two["measures_per_s"] / one["measures_per_s"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Ray backend throughput (1 vs 2 workers) and per-worker memory")
    ap.add_argument("--judges", nargs="+", default=["embedded", "loopback"], choices=["embedded", "loopback"])
    ap.add_argument("--n-embedded", type=int, default=200, help="test cases for the embedded judge")
    ap.add_argument("--n-loopback", type=int, default=400, help="test cases for the loopback judge")
    ap.add_argument("--latency", type=float, default=0.2, help="loopback judge latency per request (s)")
    ap.add_argument("--max-concurrent", type=int, default=20, help="measures in flight per worker")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    ap.add_argument("--cpus-per-block", type=float, default=1.0, help="RayConfig.num_cpus_per_block")
    ap.add_argument("--json", type=str, default=None, help="also write the results here")
    args = ap.parse_args(argv)
    global CPUS_PER_BLOCK
    CPUS_PER_BLOCK = args.cpus_per_block

    os.environ["DEEPEVAL_DISABLE_DOTENV"] = "1"
    for key in ("OPENAI_API_KEY", "TYPESAFE_API_KEY", "USE_LOCAL_MODEL", "DEEPEVAL_EVAL_MODE"):
        os.environ.pop(key, None)
    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    report: dict[str, Any] = {
        "ray": ray.__version__,
        "cluster_cpus": args.cpus,
        "machine_cpus": os.cpu_count(),
        "ray_start_s": round(time.perf_counter() - t0, 2),
        "idle_worker_rss_mb": idle_worker_rss(ray, args.cpus),
        "cpus_per_block": args.cpus_per_block,
        "driver_omp_threads": os.environ.get("OMP_NUM_THREADS") or f"unset (all {os.cpu_count()} cores)",
        "results": [],
    }
    try:
        for kind in args.judges:
            if kind == "loopback":
                judge = JudgeProcess(args.latency)
                saved = {k: os.environ.get(k) for k in judge.env}
                os.environ.update(judge.env)
                try:
                    report["results"].append(bench_judge(kind, args.n_loopback, args))
                finally:
                    for k, v in saved.items():
                        if v is None:
                            os.environ.pop(k, None)
                        else:
                            os.environ[k] = v
                    judge.close()
                report["results"][-1]["latency_s"] = args.latency
                report["results"][-1]["judge_server"] = {
                    k: judge.stats.get(k)
                    for k in ("llm_calls", "llm_failed", "llm_max_in_flight", "unrecognised")
                    if k in judge.stats
                }
            else:
                report["results"].append(bench_judge(kind, args.n_embedded, args))
    finally:
        ray.shutdown()
    report["driver_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


def print_report(report: dict[str, Any]) -> None:
    print(
        f"Ray {report['ray']}, local cluster of {report['cluster_cpus']} CPUs on a {report['machine_cpus']}-CPU "
        f"machine; cluster start {report['ray_start_s']} s (not in the timings)"
    )
    print(f"idle Ray worker peak RSS (before any deepeval work): {report['idle_worker_rss_mb']} MiB")
    print(
        f"OpenMP threads: {report['cpus_per_block']:g} per Ray block (Ray sets OMP_NUM_THREADS = num_cpus_per_block); "
        f"local run: {report['driver_omp_threads']} (matters for the CPU-bound embedded judge)"
    )
    for r in report["results"]:
        extra = f", latency {r['latency_s']} s" if "latency_s" in r else ""
        print(f"\n== judge: {r['judge']} (N={r['n']} test cases{extra})")
        if "unavailable" in r:
            print(f"   unavailable: {r['unavailable']}")
            continue
        print(f"   warm-up (2 workers, starts workers and loads the judge): {r['warmup_s']} s")
        print(
            f"   {'run':<12} {'wall s':>8} {'cases/s':>9} {'measures/s':>11} {'errors':>7}  worker peak RSS MiB"
        )
        for run in r["runs"]:
            name = f"ray x{run['workers']}" if run["backend"] == "ray" else "local"
            rss = ", ".join(f"{x:.0f}" for x in run["worker_rss_mb"]) or "-"
            print(
                f"   {name:<12} {run['wall_s']:>8.2f} {run['cases_per_s']:>9.1f} {run['measures_per_s']:>11.1f} "
                f"{run['errors']:>7}  {rss}"
            )
        print(f"   throughput ratio 2 workers / 1 worker: {r['ratio_2_over_1']}")
        if r.get("judge_server"):
            print(f"   judge server: {r['judge_server']}")
        first = next((run["first_error"] for run in r["runs"] if run["first_error"]), None)
        if first:
            print(f"   first error: {first[:200]}")
    print(f"\ndriver peak RSS: {report['driver_peak_rss_mb']} MiB")


if __name__ == "__main__":
    raise SystemExit(main())
