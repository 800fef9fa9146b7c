"""Scale benchmark of our ``evaluate()``: throughput and peak memory as the number of test cases grows.

Workload at size N (deterministic, :mod:`bench.workloads`): N test cases in one ``evaluate()`` call with the three
metrics [AnswerRelevancy, ContextualRelevancy, KnowledgeRetention]; half are RAG cases (3-5 context nodes, scored by
AR and CR) and half 6-turn conversations (scored by KR); the runner records the inapplicable pairs as skipped.
So N test cases give 1.5 N measures.

Two judges:

* ``embedded``: nothing configured (no LLM, no TypeSafe key, no eval mode): the offline default, hybrid on the
  embedded judge with deterministic extraction; no network at all.
* ``loopback``: the loopback judge of :mod:`bench.judge_server` (``--latency``, default 200 ms) in ``--mode``
  (default ``llm``) with ``max_concurrent=50``.

Each (judge, N) runs in a fresh sealed subprocess (:mod:`bench.harness`); reported: wall time of ``evaluate()``,
throughput (test cases/s and measures/s), RSS before ``evaluate()`` and peak RSS of the process, judge requests,
errors, and growth from the smallest to the largest N.

Usage::

    python bench/scale.py                    # N = 200, 1000 (a few minutes)
    python bench/scale.py --full             # N = 1000, 10000 (long: tens of minutes on 2 cores)
    python bench/scale.py --sizes 500 --judges embedded
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import code_version, machine, run_worker
from bench.judge_server import BenchJudge
from bench.workloads import conversations, rag_cases, source_note

METRICS = ["AnswerRelevancy", "ContextualRelevancy", "KnowledgeRetention"]


def mixed_cases(n: int, turns: int = 6) -> list[dict[str, Any]]:
    """``n`` cases alternating RAG and conversation (``kind`` field set on each)."""
    n_rag, n_conv = (n + 1) // 2, n // 2
    rag = [{**c, "kind": "rag"} for c in rag_cases(n_rag)]
    conv = [{**c, "kind": "conv"} for c in conversations(n_conv, turns)]
    out: list[dict[str, Any]] = []
    for i in range(max(n_rag, n_conv)):
        if i < n_rag:
            out.append(rag[i])
        if i < n_conv:
            out.append(conv[i])
    return out


def run_size(judge_kind: str, n: int, args: argparse.Namespace, judge: BenchJudge | None) -> dict[str, Any]:
    cases = mixed_cases(n)
    conc = args.concurrency if judge_kind == "loopback" else args.embedded_concurrency
    job = {
        "mode": args.mode if judge_kind == "loopback" else None,
        "include_reason": True,
        "phases": [{"kind": "mixed", "cases": cases, "metrics": METRICS, "max_concurrent": conc}],
    }
    env: dict[str, str] = {}
    if judge is not None:
        judge.reset()
        env = judge.env()
    result = run_worker("ours", job, env, timeout=args.timeout)
    row: dict[str, Any] = {
        "judge": judge_kind,
        "n": n,
        "concurrency": conc,
        "error": result.get("error"),
        "net_refused": result.get("net_refused", []),
        "peak_rss_mib": result.get("peak_rss_mib"),
        "import_s": result.get("import_s"),
    }
    if result.get("error"):
        row["traceback"] = result.get("traceback", "")[-1500:]
        row["stderr_tail"] = result.get("stderr_tail", "")[-800:]
        return row
    (phase,) = result["phases"]
    metrics = phase["metrics"]
    measured = sum(len(m["scores"]) + m.get("n_errors", 0) for m in metrics.values())
    row.update(
        {
            "wall_s": phase["wall_s"],
            "cpu_s": phase.get("cpu_s"),
            "cases_per_s": n / phase["wall_s"] if phase["wall_s"] else None,
            "measures": measured,
            "measures_per_s": measured / phase["wall_s"] if phase["wall_s"] else None,
            "n_errors": sum(m.get("n_errors", 0) for m in metrics.values()),
            "first_error": next((e for m in metrics.values() for e in m["errors"]), None),
            "rss_before_mib": phase["rss_before_mib"],
            "rss_after_mib": phase["rss_after_mib"],
            "n_test_results": phase["n_test_results"],
            "models": sorted({x for m in metrics.values() for x in m["models"]}),
        }
    )
    if judge is not None:
        s = judge.stats()
        row.update(
            {
                "llm_calls": s["llm_calls"],
                "s1_requests": s["s1_requests"],
                "max_in_flight": max(s["llm_max_in_flight"], s["s1_max_in_flight"]),
                "unrecognised": s["unrecognised"],
                "capacity_bound_s": (s["llm_calls"] + s["s1_requests"]) * judge.latency / conc,
            }
        )
    return row


def _f(v: Any, fmt: str) -> str:
    return "-" if v is None else fmt.format(v)


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| judge | N | conc | wall s | client CPU s | cases/s | measures/s | RSS before MiB | peak RSS MiB | judge calls | "
        "errors | capacity bound s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "wall_s" not in r:
            lines.append(
                f"| {r['judge']} | {r['n']} | {r['concurrency']} | FAILED: {str(r['error'])[:150]} ||||||||"
            )
            continue
        calls = r.get("llm_calls", 0) + r.get("s1_requests", 0) if "llm_calls" in r else None
        lines.append(
            f"| {r['judge']} | {r['n']} | {r['concurrency']} | {r['wall_s']:.1f} | {_f(r.get('cpu_s'), '{:.1f}')} | "
            f"{_f(r['cases_per_s'], '{:.1f}')} | "
            f"{_f(r['measures_per_s'], '{:.1f}')} | {r['rss_before_mib']:.0f} | {r['peak_rss_mib']:.0f} | "
            f"{_f(calls, '{}')} | {r['n_errors']} | {_f(r.get('capacity_bound_s'), '{:.1f}')} |"
        )
    return "\n".join(lines)


def growth(rows: list[dict[str, Any]]) -> list[str]:
    out = []
    for judge in sorted({r["judge"] for r in rows}):
        ok = sorted((r for r in rows if r["judge"] == judge and "wall_s" in r), key=lambda r: r["n"])
        if len(ok) < 2:
            continue
        a, b = ok[0], ok[-1]
        if a["n_errors"] or b["n_errors"]:
            out.append(
                f"[MISS] {judge}: not measurable, measures failed ({a['n_errors']} at N={a['n']}, "
                f"{b['n_errors']} at N={b['n']}): {a.get('first_error') or b.get('first_error')}"
            )
            continue
        rss = b["peak_rss_mib"] / a["peak_rss_mib"]
        thr = b["cases_per_s"] / a["cases_per_s"]
        out.append(
            f"[{'PASS' if rss < 2 else 'MISS'}] {judge}: peak RSS x{rss:.2f} from N={a['n']} to N={b['n']} "
            f"({a['peak_rss_mib']:.0f} -> {b['peak_rss_mib']:.0f} MiB; target < 2x); "
            f"throughput x{thr:.2f} ({a['cases_per_s']:.1f} -> {b['cases_per_s']:.1f} cases/s)"
        )
    leaked = sorted({x for r in rows for x in r.get("net_refused", [])})
    out.append(
        f"[{'PASS' if not leaked else 'MISS'}] nothing left loopback" + (f": {leaked}" if leaked else "")
    )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="scale benchmark of our evaluate()")
    ap.add_argument("--sizes", default="200,1000", help="comma-separated N (default 200,1000)")
    ap.add_argument("--full", action="store_true", help="N = 1000,10000")
    ap.add_argument("--judges", default="embedded,loopback")
    ap.add_argument("--mode", default="llm", help="eval mode on the loopback judge (default llm)")
    ap.add_argument("--latency", type=float, default=0.2, help="loopback judge latency, s (default 0.2)")
    ap.add_argument(
        "--concurrency", type=int, default=50, help="max_concurrent on the loopback judge (default 50)"
    )
    ap.add_argument(
        "--embedded-concurrency", type=int, default=20, help="max_concurrent on the embedded judge"
    )
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per run before giving up")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "scale.json")
    args = ap.parse_args(argv)
    sizes = [1000, 10000] if args.full else [int(x) for x in args.sizes.split(",") if x.strip()]
    judges = [j.strip() for j in args.judges.split(",") if j.strip()]
    rows: list[dict[str, Any]] = []
    t0 = time.monotonic()
    code_at_start = code_version()
    load_before = [round(x, 1) for x in os.getloadavg()]
    for judge_kind in judges:
        if judge_kind not in {"embedded", "loopback"}:
            ap.error(f"unknown judge {judge_kind!r}")
        for n in sizes:
            if judge_kind == "loopback":
                with BenchJudge(args.latency) as judge:
                    row = run_size(judge_kind, n, args, judge)
            else:
                row = run_size(judge_kind, n, args, None)
            rows.append(row)
            status = f"{row['wall_s']:.1f} s" if "wall_s" in row else f"FAILED {str(row['error'])[:200]}"
            print(f"  {judge_kind:9} N={n:<6} {status}", file=sys.stderr, flush=True)
    meta = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "code": code_at_start,
        "command": "python bench/scale.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "latency_s": args.latency,
        "loopback_mode": args.mode,
        "rag_source": source_note(),
        "total_s": time.monotonic() - t0,
        "loadavg_before": load_before,
        "loadavg_after": [round(x, 1) for x in os.getloadavg()],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    print("# scale: our evaluate(), N test cases x [AR, CR, KR] (half RAG, half 6-turn conversations)")
    print(
        f"{meta['date']} | code {meta['code']} | {meta['machine']} | loopback: {args.mode} mode, latency {args.latency * 1000:.0f} ms\n"
    )
    print(table(rows) + "\n")
    for r in rows:
        if r.get("error") or r.get("first_error"):
            print(f"!! {r['judge']} N={r['n']}: {r.get('error') or r.get('first_error')}")
    print("## growth\n")
    print("\n".join(growth(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
