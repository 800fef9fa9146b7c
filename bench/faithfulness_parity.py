"""Faithfulness parity: deepeval 4.3.1 and ours on the same scripted loopback judges, case by case.

Both implementations run :mod:`bench._eval_worker` (``evaluate()`` with ``FaithfulnessMetric``) against one
:class:`bench.judge_server.BenchJudge` (:mod:`bench.judge_answers` decides each claim by a hash of its text, so both
get the same verdict for the same claim: yes / borderline (idk) / no; whole-metric questions get a P(yes) from the
output alone). The set: 16 RAG cases (:func:`bench.workloads.rag_cases`) plus 8 edge cases (no claims, a context
without words, an empty context, one node, one claim, a long output). Prints per mode the cases whose scores differ,
requests (LLM calls, System One requests) and prompt tokens of each implementation, and their ratios.

Usage::

    python bench/faithfulness_parity.py                 # llm, hybrid, system_one
    python bench/faithfulness_parity.py --modes llm
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import DEEPEVAL_VERSION, run_worker
from bench.judge_server import BenchJudge
from bench.workloads import rag_cases

EDGE_CASES: list[dict[str, Any]] = [
    {"name": "edge-no-claims", "input": "Hi?", "actual_output": "...", "retrieval_context": ["Opens at 7."]},
    {
        "name": "edge-context-no-words",
        "input": "When does the pool open?",
        "actual_output": "The pool opens at 7. It closes at 22.",
        "retrieval_context": ["...", "-"],
    },
    {
        "name": "edge-empty-context",
        "input": "When does the pool open?",
        "actual_output": "The pool opens at 7. Towels are free.",
        "retrieval_context": [],
    },
    {
        "name": "edge-one-node",
        "input": "Who wrote it?",
        "actual_output": "Jane wrote it in 1999. She lives in Oslo. It sold well.",
        "retrieval_context": ["Jane wrote the book in 1999 and lives in Oslo."],
    },
    {
        "name": "edge-one-claim",
        "input": "Is it open?",
        "actual_output": "Yes, the museum is open on Mondays.",
        "retrieval_context": ["The museum opens every day except Tuesday.", "Entry costs 5 euros."],
    },
    {
        "name": "edge-long-output",
        "input": "Tell me about the ferry.",
        "actual_output": " ".join(f"Fact number {i} about the ferry is stated here." for i in range(12)),
        "retrieval_context": ["The ferry runs daily.", "It carries 200 people.", "Dogs travel free."],
    },
    {
        "name": "edge-no-claims-context-empty",
        "input": "Thanks!",
        "actual_output": "!!!",
        "retrieval_context": [],
    },
    {
        "name": "edge-refund",
        "input": "Can I get a refund?",
        "actual_output": "All customers are eligible for a 30 day full refund.",
        "retrieval_context": ["All customers are eligible for a 30 day full refund at no extra cost."],
    },
]


def cases(n_rag: int) -> list[dict[str, Any]]:
    return [*rag_cases(n_rag), *EDGE_CASES]


def run(judge: BenchJudge, impl: str, mode: str, data: list[dict[str, Any]]) -> dict[str, Any]:
    job = {
        "mode": mode,
        "include_reason": True,
        "phases": [{"kind": "rag", "cases": data, "metrics": ["Faithfulness"], "max_concurrent": 8}],
    }
    judge.reset()
    result = run_worker(impl, job, judge.env())
    stats = judge.stats()
    row: dict[str, Any] = {"impl": impl, "mode": mode, "error": result.get("error"), **stats}
    if result.get("error"):
        row["traceback"] = result.get("traceback", "")[-1500:]
        return row
    (phase,) = result["phases"]
    (metric,) = phase["metrics"].values()
    row["scores"] = {name: (score, err) for name, score, err in metric["named"]}
    return row


def compare(ours: dict[str, Any], theirs: dict[str, Any]) -> tuple[int, list[str]]:
    same, diffs = 0, []
    for name, (s_theirs, e_theirs) in theirs["scores"].items():
        s_ours, e_ours = ours["scores"].get(name, (None, "missing"))
        if e_ours or e_theirs:
            diffs.append(f"{name}: ours {s_ours} ({e_ours}) vs 4.3.1 {s_theirs} ({e_theirs})")
        elif s_ours is not None and s_theirs is not None and abs(s_ours - s_theirs) < 1e-9:
            same += 1
        else:
            diffs.append(f"{name}: ours {s_ours} vs 4.3.1 {s_theirs}")
    return same, diffs


def _ratio(a: float, b: float) -> str:
    return "-" if not b else f"{a / b:.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modes", default="llm,hybrid,system_one")
    ap.add_argument("--rag", type=int, default=16)
    ap.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent / "out" / "faithfulness_parity.json"
    )
    args = ap.parse_args(argv)
    data = cases(args.rag)
    rows = []
    with BenchJudge(0.0) as judge:
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            for impl in ("deepeval", "ours"):
                rows.append(run(judge, impl, mode, data))
                print(f"  {mode:10} {impl:8} done", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1, default=str))
    print(
        f"# Faithfulness parity: ours vs deepeval {DEEPEVAL_VERSION}, {len(data)} cases, scripted loopback judges\n"
    )
    print(
        "| mode | identical scores | LLM calls ours / 4.3.1 | S1 requests ours / 4.3.1 | LLM prompt tokens ours / "
        "4.3.1 (ratio) | S1 tokens in ours / 4.3.1 |\n|---|---|---|---|---|---|"
    )
    notes = []
    for mode in dict.fromkeys(r["mode"] for r in rows):
        theirs = next(r for r in rows if r["mode"] == mode and r["impl"] == "deepeval")
        ours = next(r for r in rows if r["mode"] == mode and r["impl"] == "ours")
        if theirs.get("error") or ours.get("error"):
            print(f"| {mode} | FAILED: 4.3.1 {theirs.get('error')} / ours {ours.get('error')} |||||")
            notes.append(ours.get("traceback") or theirs.get("traceback") or "")
            continue
        same, diffs = compare(ours, theirs)
        print(
            f"| {mode} | {same} of {len(theirs['scores'])} | {ours['llm_calls']} / {theirs['llm_calls']} | "
            f"{ours['s1_requests']} / {theirs['s1_requests']} | {ours['llm_tokens_in']} / "
            f"{theirs['llm_tokens_in']} ({_ratio(ours['llm_tokens_in'], theirs['llm_tokens_in'])}) | "
            f"{ours['s1_tokens_in']} / {theirs['s1_tokens_in']} |"
        )
        notes += [f"- {mode}: {d}" for d in diffs]
    if notes:
        print("\nDifferences:\n" + "\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
