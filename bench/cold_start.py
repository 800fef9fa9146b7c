"""Cold start: a fresh interpreter imports ``deepeval.metrics``, builds ``AnswerRelevancyMetric()`` and measures one
test case on the embedded path (no judge configured: hybrid on the embedded judge), as a first-time user does.

Paired and interleaved: each source tree given runs the same snippet in its own fresh process, the trees
alternating, ``--repeat`` times; the table gives the median of each phase (wall) and of the process's CPU time
(user + system, less sensitive to a loaded machine), and the ratio of each tree to the first. The load average is
printed before and after.

    python bench/cold_start.py                                   # this checkout only
    python bench/cold_start.py --trees /tmp/base/src,src --repeat 15   # before/after, paired

The machine's page cache is warm after the first pair (the model file, the wheels); the first pair is dropped
from the statistics (``--warmup``).
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
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import sealed_env

REPO = Path(__file__).resolve().parent.parent

SNIPPET = r"""
import json, resource, sys, time
t0 = time.perf_counter()
import deepeval.metrics
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
t1 = time.perf_counter()
metric = AnswerRelevancyMetric()
t2 = time.perf_counter()
metric.measure(LLMTestCase(input="What is the capital of France?",
                           actual_output="Paris is the capital of France. It is known for the Eiffel Tower."))
t3 = time.perf_counter()
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"import_s": t1 - t0, "construct_s": t2 - t1, "measure_s": t3 - t2, "total_s": t3 - t0,
                  "cpu_s": ru.ru_utime + ru.ru_stime, "score": metric.score,
                  "openai_loaded": "openai" in sys.modules}))
"""


def run_once(src: Path, workdir: Path) -> dict[str, float]:
    env = sealed_env(
        workdir, {"PYTHONPATH": str(src)}
    )  # no netguard: its import would count in the cold start
    out = subprocess.run(
        [sys.executable, "-c", SNIPPET], capture_output=True, text=True, env=env, cwd=workdir, timeout=600
    )
    if out.returncode != 0:
        raise RuntimeError(f"{src}: {out.stderr[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--trees", default=str(REPO / "src"), help="comma-separated src folders (first = reference)"
    )
    ap.add_argument("--repeat", type=int, default=9, help="runs per tree (default 9)")
    ap.add_argument("--warmup", type=int, default=1, help="pairs run first and dropped (default 1)")
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "cold_start.json")
    args = ap.parse_args(argv)
    trees = [Path(t).resolve() for t in args.trees.split(",") if t]
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, float]]] = {str(t): [] for t in trees}
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        for i in range(args.warmup + args.repeat):
            order = trees if i % 2 == 0 else list(reversed(trees))  # alternate who goes first
            for t in order:
                r = run_once(t, Path(tmp))
                if i >= args.warmup:
                    runs[str(t)].append(r)
    load_after = os.getloadavg()
    keys = ("import_s", "construct_s", "measure_s", "total_s", "cpu_s")
    med = {t: {k: statistics.median(r[k] for r in rs) for k in keys} for t, rs in runs.items()}
    ref = str(trees[0])
    print(
        f"# cold start: import + AnswerRelevancyMetric() + first embedded measure ({args.repeat} paired runs)"
    )
    print(
        f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f}; ru_children {resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime:.0f} s\n"
    )
    print(
        "| tree | import s | construct s | first measure s | total s | CPU s | total / ref | CPU / ref | openai loaded |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for t, m in med.items():
        loaded = sorted({bool(r["openai_loaded"]) for r in runs[t]})
        print(
            f"| {t} | {m['import_s']:.3f} | {m['construct_s']:.3f} | {m['measure_s']:.3f} | {m['total_s']:.3f} | "
            f"{m['cpu_s']:.3f} | {m['total_s'] / med[ref]['total_s']:.2f} | {m['cpu_s'] / med[ref]['cpu_s']:.2f} | "
            f"{loaded} |"
        )
    # paired ratios: run i of each tree against run i of the reference (same moment of the machine's load)
    for t in trees[1:]:
        pairs = [b["total_s"] / a["total_s"] for a, b in zip(runs[ref], runs[str(t)], strict=True)]
        cpu = [b["cpu_s"] / a["cpu_s"] for a, b in zip(runs[ref], runs[str(t)], strict=True)]
        print(
            f"\npaired {t} / {ref}: total median {statistics.median(pairs):.2f} "
            f"(min {min(pairs):.2f}, max {max(pairs):.2f}); CPU median {statistics.median(cpu):.2f}"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"load_before": load_before, "load_after": load_after, "runs": runs, "median": med}, indent=1
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
