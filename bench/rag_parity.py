"""RAG-family parity: deepeval 4.3.1 and ours on the same scripted loopback judges, case by case, for
ContextualPrecision, ContextualRecall, Hallucination, Summarization and the turn metrics (TurnContextualPrecision,
TurnContextualRecall, TurnContextualRelevancy, TurnFaithfulness, on conversations whose assistant turns carry
retrieval context, with window_size 10 and 1).

Both implementations run :mod:`bench._eval_worker` (``evaluate()``) against one :class:`bench.judge_server.BenchJudge`;
:mod:`bench.judge_answers` recognises each implementation's prompts and decides every unit by a hash of its text
(a node, a sentence of ``expected_output``, a context document, a summary claim), so both get the same verdict for
the same unit; assessment questions are one per sentence of the original, answered "yes" when a text holds the
sentence's longest word; whole-metric questions (system_one) get a P(yes) from the judged fields. Per metric: 16 RAG
cases (:func:`bench.workloads.rag_cases`, ClapNQ) shaped for the metric, plus the metric's edge cases (no node /
document, one node, no relevant node, blank nodes, no sentence, no claims, given assessment questions...).

Prints, per metric and mode, identical scores, requests (LLM calls, System One requests) and prompt tokens of each
implementation and their ratios, then every case whose scores differ.

Usage::

    python bench/rag_parity.py                                   # all four metrics, llm, hybrid, system_one
    python bench/rag_parity.py --metrics ContextualPrecision --modes llm
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.faithfulness_parity import _ratio, compare
from bench.harness import DEEPEVAL_VERSION, run_worker
from bench.judge_answers import relevance, split_sentences
from bench.judge_server import BenchJudge
from bench.workloads import rag_cases

_THINGS = ["pool", "ferry", "museum", "castle", "bakery", "bridge", "station", "library", "harbour", "garden"]


def with_verdict(verdict: str, k: int, seed: int = 0) -> list[str]:
    """``k`` short sentences the scripted judge gives ``verdict`` (``"yes"``, ``"no"``)."""
    out: list[str] = []
    i = seed
    while len(out) < k:
        s = f"The {_THINGS[i % len(_THINGS)]} opened in {1900 + i}."
        if (relevance(s) == "no") == (verdict == "no"):
            out.append(s)
        i += 1
    return out


def _base(n: int) -> list[dict[str, Any]]:
    return rag_cases(n)


def precision_cases(n: int) -> list[dict[str, Any]]:
    out = []
    for c in _base(n):
        answer = split_sentences(c["actual_output"])[0]
        out.append({**c, "expected_output": answer})
    yes, no = with_verdict("yes", 4), with_verdict("no", 4, seed=50)
    q = {"input": "When did it open?", "actual_output": "It opened long ago.", "expected_output": "In 1901."}
    edges = [
        ("cp-one-node-useful", [yes[0]]),
        ("cp-one-node-useless", [no[0]]),
        ("cp-no-relevant-node", no[:3]),
        ("cp-all-relevant", yes[:3]),
        ("cp-useful-last", [no[0], no[1], yes[0]]),
        ("cp-useful-first", [yes[0], no[0], no[1]]),
        ("cp-interleaved", [no[0], yes[0], no[1], yes[1], no[2], yes[2]]),
        ("cp-empty-context", []),
        ("cp-blank-nodes", ["...", "-"]),
        ("cp-eight-nodes", [*yes, *no]),
    ]
    return out + [{"name": name, **q, "retrieval_context": rc} for name, rc in edges]


def recall_cases(n: int) -> list[dict[str, Any]]:
    out = [{**c, "expected_output": c["actual_output"]} for c in _base(n)]
    yes, no = with_verdict("yes", 3), with_verdict("no", 3, seed=50)
    rc = ["The pool opens at seven and the castle dates from 1420."]
    edges = [
        ("cr-one-sentence", yes[0], rc),
        ("cr-none-attributable", " ".join(no), rc),
        ("cr-all-attributable", " ".join(yes), rc),
        ("cr-mixed", " ".join([yes[0], no[0], yes[1], no[1]]), rc),
        ("cr-empty-context", " ".join(yes[:2]), []),
        ("cr-blank-context", " ".join(yes[:2]), ["...", "!"]),
        ("cr-no-sentence", "...", rc),
        ("cr-one-node-many-sentences", " ".join([*yes, *no]), ["One node only."]),
    ]
    return out + [
        {
            "name": name,
            "input": "What about it?",
            "actual_output": "Anything.",
            "expected_output": e,
            "retrieval_context": r,
        }
        for name, e, r in edges
    ]


def hallucination_cases(n: int) -> list[dict[str, Any]]:
    out = [{**c, "context": c["retrieval_context"]} for c in _base(n)]
    yes, no = with_verdict("yes", 4), with_verdict("no", 4, seed=50)
    edges = [
        ("h-no-context", []),
        ("h-one-context-agrees", [yes[0]]),
        ("h-one-context-contradicted", [no[0]]),
        ("h-all-contradicted", no[:3]),
        ("h-none-contradicted", yes[:3]),
        ("h-mixed", [yes[0], no[0], yes[1], no[1], yes[2]]),
        ("h-blank-context", ["...", "-"]),
        ("h-eight-contexts", [*yes, *no]),
    ]
    return out + [
        {"name": name, "input": "Tell me.", "actual_output": "The pool opened in 1901.", "context": ctx}
        for name, ctx in edges
    ]


def summarization_cases(n: int) -> list[dict[str, Any]]:
    out = []
    for i, c in enumerate(_base(n)):
        original = " ".join(c["retrieval_context"])
        sentences = split_sentences(original)
        kept = sentences[:: 2 if i % 2 else 3] or sentences[:1]
        extra = with_verdict("no", 1, seed=60 + i) if i % 4 == 0 else []
        out.append({"name": f"s-{c['name']}", "input": original, "actual_output": " ".join([*kept, *extra])})
    yes, no = with_verdict("yes", 4), with_verdict("no", 4, seed=50)
    original = " ".join([*yes, *no])
    edges = [
        ("s-no-claims", original, "..."),
        ("s-identical", original, original),
        ("s-one-sentence", original, yes[0]),
        ("s-only-added", " ".join(yes), " ".join(no[:2])),
        ("s-one-sentence-original", yes[0], yes[0]),
        ("s-half", original, " ".join([*yes[:2], *no[:2]])),
    ]
    return out + [{"name": name, "input": o, "actual_output": s} for name, o, s in edges]


def conversation_cases(n: int) -> list[dict[str, Any]]:
    """Conversations of 1 to 3 user-assistant interactions built from the RAG cases (each assistant turn carries a
    case's retrieval context), plus edge cases: no retrieval context, an opening assistant turn, a trailing user turn,
    an assistant turn without retrieval context between two with, blank nodes."""
    base = _base(n + 2)
    out = []
    for i in range(n):
        turns: list[dict[str, Any]] = []
        for j in range(1 + i % 3):
            c = base[(i + j) % len(base)]
            turns.append({"role": "user", "content": c["input"]})
            answer = split_sentences(c["actual_output"])[0]
            turns.append(
                {"role": "assistant", "content": answer, "retrieval_context": c["retrieval_context"][:3]}
            )
        expected = split_sentences(base[i]["actual_output"])[0]
        out.append({"name": f"t-{base[i]['name']}", "turns": turns, "expected_outcome": expected})
    yes, no = with_verdict("yes", 3), with_verdict("no", 3, seed=50)

    def u(text: str) -> dict[str, Any]:
        return {"role": "user", "content": text}

    def a(text: str, rc: list[str] | None = None) -> dict[str, Any]:
        return {"role": "assistant", "content": text, **({"retrieval_context": rc} if rc is not None else {})}

    edges = [
        ("t-no-context", [u("Hi"), a("Hello."), u("When?"), a("At 9.")]),
        ("t-opening-assistant", [a("Welcome.", [no[0]]), u("When?"), a(yes[0], [yes[0], no[1]])]),
        ("t-trailing-user", [u("When?"), a(yes[1], [no[0], yes[1]]), u("Thanks!")]),
        (
            "t-gap",
            [
                u("When?"),
                a(yes[0], [yes[0]]),
                u("Why?"),
                a("Because."),
                u("Where?"),
                a(no[2], [no[2], yes[2]]),
            ],
        ),
        ("t-blank-nodes", [u("When?"), a("At 9.", ["...", "-"])]),
        ("t-one-interaction", [u("When did it open?"), a(" ".join(yes), [*no, *yes])]),
    ]
    return out + [
        {"name": name, "turns": turns, "expected_outcome": " ".join(yes[:2])} for name, turns in edges
    ]


#: metric -> its cases
METRICS: dict[str, Any] = {
    "ContextualPrecision": precision_cases,
    "ContextualRecall": recall_cases,
    "Hallucination": hallucination_cases,
    "Summarization": summarization_cases,
    "TurnContextualPrecision": conversation_cases,
    "TurnContextualRecall": conversation_cases,
    "TurnContextualRelevancy": conversation_cases,
    "TurnFaithfulness": conversation_cases,
}

#: Summarization is also run with given assessment questions (no question-writing call) on a few cases
GIVEN_QUESTIONS = {
    "assessment_questions": ["Does the text say that the pool opened in 1901?", "Is a bakery named?"]
}


def _phases(metric: str, data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kind = "conv" if metric.startswith("Turn") else "rag"
    phases: list[dict[str, Any]] = [{"kind": kind, "cases": data, "metrics": [metric], "max_concurrent": 8}]
    if kind == "conv":  # windows of one interaction too
        small = [{**c, "name": f"{c['name']}+window-1"} for c in data[:6]]
        phases.append(
            {
                "kind": kind,
                "cases": small,
                "metrics": [metric],
                "max_concurrent": 8,
                "metric_kwargs": {"window_size": 1},
            }
        )
    if metric == "Summarization":
        given = [{**c, "name": f"{c['name']}+given-questions"} for c in data[-6:]]
        phases.append(
            {
                "kind": "rag",
                "cases": given,
                "metrics": [metric],
                "max_concurrent": 8,
                "metric_kwargs": GIVEN_QUESTIONS,
            }
        )
    return phases


def run(judge: BenchJudge, impl: str, mode: str, metric: str, data: list[dict[str, Any]]) -> dict[str, Any]:
    job = {"mode": mode, "include_reason": True, "phases": _phases(metric, data)}
    judge.reset()
    result = run_worker(impl, job, judge.env())
    stats = judge.stats()
    row: dict[str, Any] = {
        "impl": impl,
        "mode": mode,
        "metric": metric,
        "error": result.get("error"),
        **stats,
    }
    if result.get("error"):
        row["traceback"] = result.get("traceback", "")[-1500:]
        return row
    row["scores"] = {
        name: (score, err)
        for phase in result["phases"]
        for m in phase["metrics"].values()
        for name, score, err in m["named"]
    }
    row["n_cases"] = sum(len(p["cases"]) for p in job["phases"])
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metrics", default=",".join(METRICS))
    ap.add_argument("--modes", default="llm,hybrid,system_one")
    ap.add_argument("--rag", type=int, default=16)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out" / "rag_parity.json")
    args = ap.parse_args(argv)
    rows = []
    with BenchJudge(0.0) as judge:
        for metric in [m.strip() for m in args.metrics.split(",") if m.strip()]:
            data = METRICS[metric](args.rag)
            for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
                for impl in ("deepeval", "ours"):
                    rows.append(run(judge, impl, mode, metric, data))
                    print(f"  {metric:20} {mode:10} {impl:8} done", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1, default=str))
    print(f"# RAG parity: ours vs deepeval {DEEPEVAL_VERSION}, scripted loopback judges\n")
    print(
        "| metric | mode | identical scores | LLM calls ours / 4.3.1 | S1 requests ours / 4.3.1 | LLM prompt tokens "
        "ours / 4.3.1 (ratio) | unrecognised prompts |\n|---|---|---|---|---|---|---|"
    )
    notes = []
    for metric, mode in dict.fromkeys((r["metric"], r["mode"]) for r in rows):
        theirs = next(r for r in rows if (r["metric"], r["mode"], r["impl"]) == (metric, mode, "deepeval"))
        ours = next(r for r in rows if (r["metric"], r["mode"], r["impl"]) == (metric, mode, "ours"))
        if theirs.get("error") or ours.get("error"):
            print(
                f"| {metric} | {mode} | FAILED: 4.3.1 {theirs.get('error')} / ours {ours.get('error')} |||||"
            )
            notes.append(ours.get("traceback") or theirs.get("traceback") or "")
            continue
        same, diffs = compare(ours, theirs)
        print(
            f"| {metric} | {mode} | {same} of {len(theirs['scores'])} | {ours['llm_calls']} / {theirs['llm_calls']} | "
            f"{ours['s1_requests']} / {theirs['s1_requests']} | {ours['llm_tokens_in']} / {theirs['llm_tokens_in']} "
            f"({_ratio(ours['llm_tokens_in'], theirs['llm_tokens_in'])}) | "
            f"{ours['unrecognised']} / {theirs['unrecognised']} |"
        )
        notes += [f"- {metric} {mode}: {d}" for d in diffs]
    if notes:
        print("\nDifferences:\n" + "\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
