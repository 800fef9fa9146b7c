"""Embedded judge latency per test case, its tail, and how its cost grows; paired across source trees.

What one worker process measures (no judge configured: hybrid on the embedded judge, deterministic extraction,
template reasons; each test case measured alone with ``metric.measure``, one after another, in a fresh process):

* **per test case** (``--cold``: the encoder cache cleared before each case): AnswerRelevancy on ``--n`` RAG cases (ClapNQ dev), ContextualRelevancy on ``--n`` cases of 5
  retrieval-context nodes, KnowledgeRetention on ``--n`` conversations of 10 turns: median, p95, max, mean and
  p95/median of the wall time, and the process CPU time per case (user + system of all threads: less sensitive to
  a loaded machine than wall time). The first test case of the process (model load, first imports) is reported
  apart as ``first`` and is part of the statistics;
* **growth**: ContextualRelevancy on one node of ``--sizes`` sentences (fresh sentences for each size), in ms per
  sentence; KnowledgeRetention on conversations of ``--turns`` turns, in ms per turn; the encoder cache is cleared
  before each. Linear cost keeps the per-sentence (per-turn) figure flat as the size grows.

Paired runs: ``--trees A,B`` runs the worker once per tree per repeat, alternating which goes first, so both see
the same machine load; the report gives each statistic's median over ``--repeat`` runs, the load average, and the
ratio B/A.

    python bench/embedded_latency.py                                  # this checkout, 1 run
    python bench/embedded_latency.py --trees /tmp/base/src,src --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import sealed_env

REPO = Path(__file__).resolve().parent.parent


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _node(n: int, salt: str) -> str:
    return " ".join(
        f"Record {salt}{i} says the harbour ferry number {i % 13} leaves pier {i % 7} at {i % 12 + 1} o'clock."
        for i in range(n)
    )


def _timed(metric: Any, case: Any) -> tuple[float, float]:
    c0, t0 = _cpu(), time.perf_counter()
    metric.measure(case)
    if metric.error:
        raise RuntimeError(f"{type(metric).__name__}: {metric.error}")
    return time.perf_counter() - t0, _cpu() - c0


def worker(n: int, sizes: list[int], turns: list[int], cold: bool = False) -> dict[str, Any]:
    """Runs in the tree under test (its ``deepeval`` on ``PYTHONPATH``). ``cold``: the encoder cache is cleared
    before each test case (each case pays for all of its own encodings; without it, texts repeated across the
    run, e.g. the template conversations' shared sentences, are encoded once)."""
    from bench.workloads import conversations, rag_cases
    from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
    from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

    def rag(c: dict[str, Any]) -> Any:
        return LLMTestCase(
            input=c["input"], actual_output=c["actual_output"], retrieval_context=c["retrieval_context"]
        )

    def conv(c: dict[str, Any]) -> Any:
        return ConversationalTestCase(turns=[Turn(role=t["role"], content=t["content"]) for t in c["turns"]])

    out: dict[str, Any] = {"per_case": {}, "growth": {"cr_sentences": {}, "kr_turns": {}}}
    plan = [
        ("AR", AnswerRelevancyMetric, [rag(c) for c in rag_cases(n)]),
        ("CR", ContextualRelevancyMetric, [rag(c) for c in rag_cases(n, offset=1000, nodes=5)]),
        ("KR", KnowledgeRetentionMetric, [conv(c) for c in conversations(n, 10)]),
    ]
    from deepeval.models.embedded import encoder

    for name, cls, cases in plan:
        metric = cls(threshold=0.5, eval_mode="hybrid")
        times = []
        for case in cases:
            if cold:
                encoder.clear_cache()
            times.append(_timed(metric, case))
        out["per_case"][name] = {"wall": [w for w, _ in times], "cpu": [c for _, c in times]}
    for size in sizes:
        encoder.clear_cache()  # growth is measured cold: nothing encoded by an earlier size or test case
        metric = ContextualRelevancyMetric(threshold=None, eval_mode="hybrid", include_reason=False)
        case = LLMTestCase(
            input="When does the harbour ferry leave pier 3?",
            actual_output="At noon.",
            retrieval_context=[_node(size, f"s{size}x")],
        )
        wall, cpu = _timed(metric, case)
        out["growth"]["cr_sentences"][str(size)] = {"wall": wall, "cpu": cpu}
    for k in turns:
        metric = KnowledgeRetentionMetric(threshold=None, eval_mode="hybrid", include_reason=False)
        timed = []
        for c in conversations(3, k):
            encoder.clear_cache()
            timed.append(_timed(metric, conv(c)))
        out["growth"]["kr_turns"][str(k)] = {
            "wall": sum(w for w, _ in timed) / len(timed),
            "cpu": sum(c for _, c in timed) / len(timed),
        }
    return out


def _run_tree(src: Path, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    env = sealed_env(workdir, {"PYTHONPATH": os.pathsep.join([str(src), str(REPO)])})
    for key in ("DEEPEVAL_SHARED_DATASETS", "DEEPEVAL_DATASETS", "DEEPEVAL_ENCODER_THREADS"):
        if key in os.environ:
            env[key] = os.environ[key]
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--n",
        str(args.n),
        "--sizes",
        args.sizes,
        "--turns",
        args.turns,
        *(["--cold"] if args.cold else []),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=workdir, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"{src}: worker failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _pct(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    k = (len(ys) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ys) - 1)
    return ys[lo] + (ys[hi] - ys[lo]) * (k - lo)


def _stats(xs: list[float]) -> dict[str, float]:
    med = statistics.median(xs)
    p95 = _pct(xs, 0.95)
    return {
        "first": xs[0],
        "median": med,
        "p95": p95,
        "max": max(xs),
        "mean": statistics.fmean(xs),
        "p95_over_median": p95 / med if med else float("nan"),
    }


def _median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def report(trees: list[str], runs: dict[str, list[dict[str, Any]]], meta: dict[str, Any]) -> str:
    lines = [
        f"# embedded judge per test case ({meta['n']} cases each; {meta['repeat']} paired run(s), medians; "
        f"encoder cache {'cleared before each case' if meta.get('cold') else 'kept across the run'})",
        f"load average before {meta['load_before'][0]:.1f}, after {meta['load_after'][0]:.1f}; "
        f"{meta['cpus']} CPUs; command: {meta['command']}",
        "",
        "| metric | tree | first ms | median ms | p95 ms | max ms | mean ms | p95/median | CPU median ms | CPU p95/median |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for metric in ("AR", "CR", "KR"):
        for t in trees:
            wall = _median_of([_stats(r["per_case"][metric]["wall"]) for r in runs[t]])
            cpu = _median_of([_stats(r["per_case"][metric]["cpu"]) for r in runs[t]])
            lines.append(
                f"| {metric} | {t} | {wall['first'] * 1e3:.0f} | {wall['median'] * 1e3:.0f} | "
                f"{wall['p95'] * 1e3:.0f} | {wall['max'] * 1e3:.0f} | {wall['mean'] * 1e3:.0f} | "
                f"{wall['p95_over_median']:.2f} | {cpu['median'] * 1e3:.0f} | {cpu['p95_over_median']:.2f} |"
            )
    lines += [
        "",
        "growth (medians over runs): ms per sentence (CR, one node) / per turn (KR), wall and CPU",
        "",
    ]
    lines += ["| what | size | tree | wall ms per unit | CPU ms per unit |", "|---|---|---|---|---|"]
    for what, key in (("CR sentences", "cr_sentences"), ("KR turns", "kr_turns")):
        for size in runs[trees[0]][0]["growth"][key]:
            for t in trees:
                wall = statistics.median(r["growth"][key][size]["wall"] for r in runs[t]) / int(size)
                cpu = statistics.median(r["growth"][key][size]["cpu"] for r in runs[t]) / int(size)
                lines.append(f"| {what} | {size} | {t} | {wall * 1e3:.1f} | {cpu * 1e3:.1f} |")
    if len(trees) > 1:
        a, b = trees[0], trees[-1]
        lines += ["", f"ratios {b} / {a} (paired runs, median of the per-run ratios):", ""]
        for metric in ("AR", "CR", "KR"):
            for stat in ("median", "p95", "max", "mean"):
                ratios = [
                    _stats(rb["per_case"][metric]["wall"])[stat]
                    / _stats(ra["per_case"][metric]["wall"])[stat]
                    for ra, rb in zip(runs[a], runs[b], strict=True)
                ]
                lines.append(f"- {metric} {stat}: {statistics.median(ratios):.2f}")
        sizes = list(runs[a][0]["growth"]["cr_sentences"])
        for size in sizes:
            ratios = [
                rb["growth"]["cr_sentences"][size]["wall"] / ra["growth"]["cr_sentences"][size]["wall"]
                for ra, rb in zip(runs[a], runs[b], strict=True)
            ]
            lines.append(f"- CR per sentence at {size} sentences: {statistics.median(ratios):.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--trees", default=str(REPO / "src"), help="comma-separated src folders (first = reference)"
    )
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--n", type=int, default=50, help="test cases per metric (default 50)")
    ap.add_argument("--sizes", default="25,50,100,200,400", help="CR node sizes in sentences")
    ap.add_argument("--turns", default="10,20,40", help="KR conversation lengths in turns")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "embedded_latency.json")
    ap.add_argument("--cold", action="store_true", help="clear the encoder cache before each test case")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    turns = [int(x) for x in args.turns.split(",") if x]
    if args.worker:
        print(json.dumps(worker(args.n, sizes, turns, args.cold)))
        return 0
    trees = [str(Path(t).resolve()) for t in args.trees.split(",") if t]
    runs: dict[str, list[dict[str, Any]]] = {t: [] for t in trees}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="embedded-latency-") as tmp:
        for i in range(args.repeat):
            for t in trees if i % 2 == 0 else list(reversed(trees)):
                t0 = time.monotonic()
                runs[t].append(_run_tree(Path(t), args, Path(tmp)))
                print(f"  run {i + 1} {t}: {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    meta = {
        "n": args.n,
        "repeat": args.repeat,
        "cold": args.cold,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "cpus": os.cpu_count(),
        "command": "python bench/embedded_latency.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    print(report(trees, runs, meta))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
