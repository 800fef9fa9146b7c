"""Side-by-side benchmark: our ``deepeval`` against deepeval 4.3.1 on the same test cases and the same loopback judge.

Workload (deterministic, :mod:`bench.workloads`): 20 RAG cases with 3-5 retrieval-context nodes (ClapNQ dev) for
AnswerRelevancy and ContextualRelevancy (alone and together), and 10 conversations of 20 turns for
KnowledgeRetention; every group in ``llm``, ``hybrid`` and ``system_one`` mode. Each run is one subprocess of
:mod:`bench._eval_worker` in the implementation's own virtual environment (deepeval 4.3.1 is installed from PyPI
into ``bench/.venvs/`` on first use), sealed by :mod:`bench.harness` (no keys, telemetry off, non-loopback
connections refused and counted).

Each worker runs two phases: the single deepest test case alone (its sequential depth, measured from the
server's timeline, times the latency is the critical-path bound: no schedule can finish that case sooner), then
the whole group at ``max_concurrent`` (default 20), whose wall time and counts are the headline numbers.

Usage::

    python bench/side_by_side.py                       # everything, ~5 minutes at 200 ms latency
    python bench/side_by_side.py --modes hybrid --groups kr --impls ours

Prints a table per mode, the ratio table and the target checks last; writes JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.critical_path import client_events
from bench.critical_path import summary as path_summary
from bench.critical_path import trace as path_trace
from bench.harness import DEEPEVAL_VERSION, code_version, machine, run_worker
from bench.judge_server import BenchJudge
from bench.workloads import conversations, rag_cases, source_note

GROUPS: dict[str, tuple[str, list[str]]] = {
    "ar": ("rag", ["AnswerRelevancy"]),
    "cr": ("rag", ["ContextualRelevancy"]),
    "ar+cr": ("rag", ["AnswerRelevancy", "ContextualRelevancy"]),
    "kr": ("conv", ["KnowledgeRetention"]),
}
#: the issue-29 target: our wall time at most this multiple of the critical-path bound in every cell
TARGET_WALL_OVER_BOUND = 1.15

LABEL = {
    "ar": "AnswerRelevancy",
    "cr": "ContextualRelevancy",
    "ar+cr": "AR+CR together",
    "kr": "KnowledgeRetention",
}


def _deepest(kind: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
    if kind == "rag":
        return max(cases, key=lambda c: (len(c["retrieval_context"]), len(c["actual_output"])))
    return max(cases, key=lambda c: (len(c["turns"]), len(c.get("attrition_turns", []))))


def run_one(
    judge: BenchJudge,
    impl: str,
    mode: str,
    group: str,
    data: dict[str, list[dict[str, Any]]],
    conc: int,
    profile: bool = False,
    src: Path | None = None,
) -> dict[str, Any]:
    kind, metrics = GROUPS[group]
    cases = data[kind]
    job = {
        "mode": mode,
        "include_reason": True,
        "phases": [
            {"kind": kind, "cases": [_deepest(kind, cases)], "metrics": metrics, "max_concurrent": conc},
            {"kind": kind, "cases": cases, "metrics": metrics, "max_concurrent": conc, "profile": profile},
        ],
    }
    judge.reset()
    server_cpu0 = time.process_time()  # this process: the loopback servers' threads (and little else)
    result = run_worker(impl, job, judge.env(), src=src)
    server_cpu = time.process_time() - server_cpu0
    row: dict[str, Any] = {
        "impl": impl,
        "mode": mode,
        "group": group,
        "error": result.get("error"),
        "net_refused": result.get("net_refused", []),
        "import_s": result.get("import_s"),
        "deepeval_file": result.get("deepeval_file"),
        "peak_rss_mib": result.get("peak_rss_mib"),
    }
    if result.get("error"):
        row["traceback"] = result.get("traceback", "")[-1500:]
        row["stderr_tail"] = result.get("stderr_tail", "")[-800:]
    phases = result.get("phases") or []
    if len(phases) == 2:
        single, full = phases
        s_single = judge.stats((single["start"], single["end"]))
        s_full = judge.stats((full["start"], full["end"]))
        whole = judge.stats()
        ev = judge._events((full["start"], full["end"]))
        bound_s = s_single["depth"] * judge.latency
        full_trace = path_trace(ev, full["start"], full["end"], judge.latency)
        single_trace = path_trace(
            judge._events((single["start"], single["end"])), single["start"], single["end"], judge.latency
        )
        calls = full.get("client_calls") or []
        client_trace = (
            path_trace(client_events(calls), full["start"], full["end"], judge.latency) if calls else None
        )
        first = min((e.t - judge.latency for e in ev), default=full["start"]) - full["start"]
        tail = full["end"] - max((e.t for e in ev), default=full["end"])
        scores = [s for m in full["metrics"].values() for s in m["scores"]]
        errors = [e for m in full["metrics"].values() for e in m["errors"]]
        n_errors = sum(m.get("n_errors", len(m["errors"])) for m in full["metrics"].values())
        row.update(
            {
                "wall_s": full["wall_s"],
                "cpu_s": full.get("cpu_s"),
                "single_wall_s": single["wall_s"],
                "depth": s_single["depth"],
                "full_depth": s_full["depth"],
                "to_first_request_s": first,
                "after_last_reply_s": tail,
                "bound_s": bound_s,
                "trace": full_trace,
                "client_trace": client_trace,
                "single_trace": single_trace,
                "server_cpu_s": server_cpu,
                "llm_calls": s_full["llm_calls"],
                "llm_failed": s_full["llm_failed"],
                "s1_requests": s_full["s1_requests"],
                "s1_failed": s_full["s1_failed"],
                "s1_questions": s_full["s1_questions"],
                "llm_tokens_in": s_full["llm_tokens_in"],
                "llm_tokens_out": s_full["llm_tokens_out"],
                "s1_tokens_in": s_full["s1_tokens_in"],
                "single_llm_calls": s_single["llm_calls"],
                "single_s1_requests": s_single["s1_requests"],
                "max_in_flight": max(whole["llm_max_in_flight"], whole["s1_max_in_flight"]),
                "rejected": whole["rejected"],
                "unrecognised": s_full["unrecognised"] + s_single["unrecognised"],
                "tasks": s_full["tasks"],
                "n_results": full["n_metric_results"],
                "n_expected": len(cases) * len(metrics),
                "mean_score": statistics.fmean(scores) if scores else None,
                "n_errors": n_errors,
                "first_error": errors[0] if errors else None,
                "models": sorted({x for m in full["metrics"].values() for x in m["models"]}),
                "profile": full.get("profile"),
            }
        )
    return row


def _median_row(tries: list[dict[str, Any]]) -> dict[str, Any]:
    """The try with the median wall time (failed tries sort last); all walls are kept in ``walls_s``."""
    ok = sorted((t for t in tries if "wall_s" in t), key=lambda t: t["wall_s"])
    if not ok:
        return tries[0]
    row = dict(ok[(len(ok) - 1) // 2])
    row["walls_s"] = [t["wall_s"] for t in ok]
    row["failed_tries"] = len(tries) - len(ok)
    return row


def _load(t: Any) -> str:
    return ", ".join(f"{x:.1f}" for x in t)


def _f(v: Any, fmt: str = "{:.2f}") -> str:
    if v is None:
        return "-"
    return fmt.format(v) if isinstance(v, float) else str(v)


def mode_table(rows: list[dict[str, Any]], mode: str) -> str:
    head = (
        "| metric | impl | wall s | client CPU s | LLM calls | S1 req (questions) | LLM tok in | S1 tok in | depth | bound s | "
        "wall/bound | mean score | errors |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for r in rows:
        if r["mode"] != mode:
            continue
        if "wall_s" not in r:
            lines.append(f"| {LABEL[r['group']]} | {r['impl']} | FAILED: {str(r['error'])[:120]} |||||||||||")
            continue
        ratio = r["wall_s"] / r["bound_s"] if r["bound_s"] else None
        lines.append(
            f"| {LABEL[r['group']]} | {r['impl']} | {r['wall_s']:.2f} | {_f(r.get('cpu_s'))} | {r['llm_calls']} | "
            f"{r['s1_requests']} ({r['s1_questions']}) | {r['llm_tokens_in']} | {r['s1_tokens_in']} | {r['depth']} | "
            f"{r['bound_s']:.1f} | {_f(ratio)} | {_f(r['mean_score'], '{:.3f}')} | "
            f"{r['n_errors']}/{r['n_results']}"
            + (f" of {r['n_expected']}" if r["n_results"] != r["n_expected"] else "")
            + " |"
        )
    return "\n".join(lines)


def _client_cells(ct: dict[str, Any] | None) -> str:
    if not ct or not ct.get("hops"):
        return "-"
    return " / ".join(f"{ct[k] * 1e3:.0f}" for k in ("startup", "server", "gaps", "finish"))


def trace_table(rows: list[dict[str, Any]], mode: str) -> str:
    """Where each cell's wall time went on its achieved critical path (see ``bench/critical_path.py``), in ms."""
    lines = [
        "| metric | impl | wall/bound | bound | depth (single/full) | startup | latency | server | gaps | finish | "
        "server CPU s | single-case wall/bound | client side: startup / round trip beyond latency / gaps / finish |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["mode"] != mode or "trace" not in r:
            continue
        t, st = r["trace"], r["single_trace"]
        b = r["bound_s"]
        lines.append(
            f"| {LABEL[r['group']]} | {r['impl']} | {_f(r['wall_s'] / b if b else None)} | {b * 1e3:.0f} | "
            f"{r['depth']}/{t['depth']} | {t['startup'] * 1e3:.0f} | {t['latency'] * 1e3:.0f} | "
            f"{t['server'] * 1e3:.0f} | {t['gaps'] * 1e3:.0f} | {t['finish'] * 1e3:.0f} | "
            f"{_f(r.get('server_cpu_s'))} | {_f(st['wall'] / b if b else None)} | {_client_cells(r.get('client_trace'))} |"
        )
    return "\n".join(lines)


def _pair(
    rows: list[dict[str, Any]], mode: str, group: str, other: str = "deepeval"
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    ours = next((r for r in rows if r["impl"] == "ours" and r["mode"] == mode and r["group"] == group), None)
    theirs = next((r for r in rows if r["impl"] == other and r["mode"] == mode and r["group"] == group), None)
    return ours, theirs


def _ratio(a: Any, b: Any) -> str:
    if a is None or b is None:
        return "-"
    if b == 0:
        return "0/0" if a == 0 else f"{a}/0"
    return f"{a / b:.2f}"


def ratio_table(
    rows: list[dict[str, Any]], modes: list[str], groups: list[str], other: str = "deepeval"
) -> str:
    lines = [
        "| mode | metric | wall | LLM calls | S1 requests | judge calls | LLM tok in | S1 tok in |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for mode in modes:
        for g in groups:
            o, d = _pair(rows, mode, g, other)
            if not o or not d or "wall_s" not in o or "wall_s" not in d:
                continue
            lines.append(
                f"| {mode} | {LABEL[g]} | {_ratio(o['wall_s'], d['wall_s'])} | {_ratio(o['llm_calls'], d['llm_calls'])} | "
                f"{_ratio(o['s1_requests'], d['s1_requests'])} | "
                f"{_ratio(o['llm_calls'] + o['s1_requests'], d['llm_calls'] + d['s1_requests'])} | "
                f"{_ratio(o['llm_tokens_in'], d['llm_tokens_in'])} | {_ratio(o['s1_tokens_in'], d['s1_tokens_in'])} |"
            )
    return "\n".join(lines)


def targets(rows: list[dict[str, Any]], modes: list[str], groups: list[str]) -> list[str]:
    out = []
    o, d = _pair(rows, "hybrid", "kr")
    if o and d and "wall_s" in o and "wall_s" in d:
        ok = o["wall_s"] <= d["wall_s"] / 3
        out.append(
            f"[{'PASS' if ok else 'MISS'}] KnowledgeRetention hybrid wall <= 1/3 of deepeval's: "
            f"{o['wall_s']:.2f} s vs {d['wall_s']:.2f} s (ratio {o['wall_s'] / d['wall_s']:.2f})"
        )
    worse = []
    checked = 0
    for mode in modes:
        for g in groups:
            o, d = _pair(rows, mode, g)
            if not o or not d or "wall_s" not in o or "wall_s" not in d:
                continue
            checked += 1
            if o["n_errors"] or d["n_errors"]:
                worse.append(f"{mode}/{LABEL[g]} not comparable ({o['n_errors']} vs {d['n_errors']} errors)")
                continue
            for key in ("llm_calls", "s1_requests"):
                if o[key] > d[key]:
                    worse.append(f"{mode}/{LABEL[g]} {key} {o[key]} > {d[key]}")
    out.append(
        f"[{'PASS' if not worse else 'MISS'}] never more judge calls than deepeval ({checked} metric/mode pairs)"
        + ("" if not worse else ": " + "; ".join(worse))
    )
    far = []
    for r in rows:
        if r["impl"] == "ours" and "wall_s" in r and r["bound_s"]:
            ratio = r["wall_s"] / r["bound_s"]
            if ratio > TARGET_WALL_OVER_BOUND:
                far.append(f"{r['mode']}/{LABEL[r['group']]} {ratio:.2f}x")
    n = sum(1 for r in rows if r["impl"] == "ours" and "wall_s" in r)
    out.append(
        f"[{'PASS' if not far else 'MISS'}] our wall within {TARGET_WALL_OVER_BOUND}x of the critical-path bound ({n} runs)"
        + ("" if not far else ": " + "; ".join(far))
    )
    leaked = sorted({x for r in rows for x in r.get("net_refused", [])})
    out.append(
        f"[{'PASS' if not leaked else 'MISS'}] nothing left loopback" + (f": {leaked}" if leaked else "")
    )
    unrec = sum(r.get("unrecognised", 0) for r in rows)
    out.append(f"[{'ok' if not unrec else 'WARN'}] prompts the scripted judge did not recognise: {unrec}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="ours vs deepeval 4.3.1 on one loopback judge")
    ap.add_argument("--latency", type=float, default=0.2, help="judge latency in seconds (default 0.2)")
    ap.add_argument("--modes", default="llm,hybrid,system_one")
    ap.add_argument("--groups", default="ar,cr,ar+cr,kr", help="subset of ar,cr,ar+cr,kr")
    ap.add_argument(
        "--impls", default="ours,deepeval", help="ours, deepeval, and base (ours at --base-src), in run order"
    )
    ap.add_argument(
        "--base-src",
        type=Path,
        default=None,
        help="src folder of another checkout of ours, run as impl 'base'",
    )
    ap.add_argument("--rag", type=int, default=20, help="RAG test cases (default 20)")
    ap.add_argument("--convs", type=int, default=10, help="conversations (default 10)")
    ap.add_argument("--turns", type=int, default=20, help="turns per conversation (default 20)")
    ap.add_argument("--concurrency", type=int, default=20, help="max_concurrent of evaluate() (default 20)")
    ap.add_argument(
        "--profile", action="store_true", help="cProfile the full phase (top 25 by own time in --out)"
    )
    ap.add_argument(
        "--repeat", type=int, default=1, help="runs per cell; the one with the median wall is kept"
    )
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "side_by_side.json")
    args = ap.parse_args(argv)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    groups = [g.strip() for g in args.groups.split(",") if g.strip()]
    impls = [i.strip() for i in args.impls.split(",") if i.strip()]
    for g in groups:
        if g not in GROUPS:
            ap.error(f"unknown group {g!r}; choose from {', '.join(GROUPS)}")
    if "base" in impls and args.base_src is None:
        ap.error("impl 'base' needs --base-src")
    srcs: dict[str, Path | None] = {"ours": None, "deepeval": None, "base": args.base_src}
    data = {"rag": rag_cases(args.rag), "conv": conversations(args.convs, args.turns)}
    rows: list[dict[str, Any]] = []
    t0 = time.monotonic()
    code_at_start = code_version()
    load_before = os.getloadavg()
    with BenchJudge(args.latency) as judge:
        for mode in modes:
            for g in groups:
                # interleaved: each repeat runs every impl once, alternating the order (paired under one load)
                tries: dict[str, list[dict[str, Any]]] = {impl: [] for impl in impls}
                for rep in range(max(1, args.repeat)):
                    for impl in impls if rep % 2 == 0 else list(reversed(impls)):
                        tries[impl].append(
                            run_one(judge, impl, mode, g, data, args.concurrency, args.profile, srcs[impl])
                        )
                for impl in impls:
                    row = _median_row(tries[impl])
                    row["loadavg"] = os.getloadavg()[0]
                    rows.append(row)
                    status = (
                        f"{row['wall_s']:.2f} s" if "wall_s" in row else f"FAILED {str(row['error'])[:200]}"
                    )
                    print(f"  {mode:10} {LABEL[g]:20} {impl:8} {status}", file=sys.stderr, flush=True)
    meta = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "code": code_at_start,
        "command": "python bench/side_by_side.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "latency_s": args.latency,
        "concurrency": args.concurrency,
        "deepeval_reference": DEEPEVAL_VERSION,
        "rag_source": source_note(),
        "n_rag": args.rag,
        "n_conv": args.convs,
        "turns": args.turns,
        "total_s": time.monotonic() - t0,
        "loadavg_before": load_before,
        "loadavg_after": os.getloadavg(),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    print(f"# side by side: ours vs deepeval {DEEPEVAL_VERSION}")
    print(
        f"{meta['date']} | code {meta['code']} | {meta['machine']} | latency {args.latency * 1000:.0f} ms | max_concurrent {args.concurrency}"
    )
    print(
        f"RAG: {args.rag} cases from {meta['rag_source']}; conversations: {args.convs} x {args.turns} turns\n"
    )
    for mode in modes:
        print(f"## {mode}\n\n{mode_table(rows, mode)}\n")
        print(f"critical path achieved ({mode}; ms):\n\n{trace_table(rows, mode)}\n")
        for r in rows:
            if r["mode"] == mode and "trace" in r and r["impl"] == "ours":
                print(f"- {LABEL[r['group']]} ({r['impl']}): {path_summary(r['trace'], r['bound_s'])}")
                if r.get("client_trace"):
                    print(f"  client side: {path_summary(r['client_trace'], r['bound_s'])}")
        print()
    for r in rows:
        if r.get("error"):
            print(f"!! {r['impl']} {r['mode']} {r['group']}: {r['error']}\n{r.get('traceback', '')}")
    print("## ratio ours / deepeval (lower is better)\n")
    print(ratio_table(rows, modes, groups) + "\n")
    if "base" in impls:
        print(f"## ratio ours / base ({args.base_src}; lower is better)\n")
        print(ratio_table(rows, modes, groups, "base") + "\n")
    files = sorted({f"{r['impl']}: {r.get('deepeval_file')}" for r in rows})
    print("imported: " + "; ".join(files) + "\n")
    print("## targets\n")
    print("\n".join(targets(rows, modes, groups)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
