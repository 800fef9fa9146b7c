"""GEval parity with deepeval 4.3.1 on identical scripted judge answers (:mod:`bench.geval_answers`).

Three phases, each run by both implementations in a sealed subprocess (:func:`bench.harness.run_worker`) against a
fresh loopback OpenAI server (:class:`deepeval.testing.OpenAIChatServer`) that answers from the same script:

* ``openai``: 24 cases, each measured by its own GEval (criteria or given steps, with or without rubric, 2 strict)
  on ``GPTModel("gpt-4.1")``; the server returns ``top_logprobs`` for the score token, so both compute the
  probability-weighted score;
* ``custom``: the same cases on a custom ``DeepEvalBaseLLM`` (no log-probabilities): the raw score normalised;
* ``evaluate``: one GEval (criteria) over the 24 cases through ``evaluate()``: how many steps requests each makes;
* ``conv``: 20 conversations, each measured by its own ConversationalGEval on ``GPTModel("gpt-4.1")`` with
  ``top_logprobs`` (score = the 0-10 number / 10 whatever the rubric, as 4.3.1);
* ``jev``: 16 JevEval and 6 ConversationalJevEval cases (Noul / Score / Choice with weights, not-applicable choices,
  2 strict) on a loopback ``/v1/systemone`` server that answers from the same script;
* ``dag_llm`` / ``dag_hybrid``: 20 DAGMetrics over four graph shapes (a task feeding a binary then a non-binary
  judgement, a binary root with a GEval child, a non-binary root, two task roots feeding one judgement); hybrid asks
  the loopback ``/v1/systemone`` for the judgements; ``cdag_llm`` / ``cdag_hybrid``: the same with
  ConversationalDAGMetric (a task with a ``turn_window``, a non-binary root);
* ``arena``: 12 ArenaGEval rounds of 2-4 contestants (the judge picks the masked name whose output is marked
  best): the winner's real name.

Tokens are the server's counts (LLM: whitespace words of the prompt in / of the reply out; System One: request
bytes / 3 in; the DAG phases give LLM in and System One in). Usage: ``python bench/geval_parity.py [--out FILE]``. Prints the per-case table, the request counts and the
summary line; exit status 1 when a score differs by more than 1e-9.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import geval_answers as ga
from bench.harness import BENCH, run_worker
from deepeval.testing import OpenAIChatServer, SystemOneServer

WORKER = BENCH / "_geval_worker.py"
IMPLS = ("deepeval", "ours")


def _kinds(bodies: list[Any]) -> dict[str, int]:
    out = {"steps": 0, "score_logprobs": 0, "score_plain": 0}
    for b in bodies:
        if not isinstance(b, dict):
            continue
        text = " ".join(str(m.get("content")) for m in b.get("messages", []) if isinstance(m, dict))
        if ga.CASE_ID.search(text) is None:
            out["steps"] += 1
        elif b.get("logprobs"):
            out["score_logprobs"] += 1
        else:
            out["score_plain"] += 1
    return out


def run_jev() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for impl in IMPLS:
        with SystemOneServer(ga.answer_system_one, api_key="ts-loopback-000") as server:
            job = {"phase": "jev", "base_url": server.base_url, "bench_dir": str(BENCH)}
            env = {"TYPESAFE_API_KEY": "ts-loopback-000", "TYPESAFE_BASE_URL": server.base_url}
            res = run_worker(impl, job, env, worker=WORKER, timeout=600)
            res["requests"] = server.counters.requests
            res["kinds"] = {"system_one": server.counters.requests}
            res["tokens"] = [server.counters.input_tokens, server.counters.output_tokens]
        results[impl] = res
    return results


def run_dag(mode: str, prefix: str = "dag") -> dict[str, Any]:
    results: dict[str, Any] = {}
    for impl in IMPLS:
        with (
            OpenAIChatServer(ga.answer_chat) as llm,
            SystemOneServer(ga.answer_dag_system_one, api_key="ts-lb-0") as s1,
        ):
            job = {
                "phase": f"{prefix}_{mode}",
                "mode": mode,
                "base_url": llm.base_url,
                "bench_dir": str(BENCH),
            }
            env = {
                "OPENAI_API_KEY": "sk-loopback-000",
                "TYPESAFE_API_KEY": "ts-lb-0",
                "TYPESAFE_BASE_URL": s1.base_url,
            }
            res = run_worker(impl, job, env, worker=WORKER, timeout=600)
            res["requests"] = llm.counters.requests + s1.counters.requests
            res["kinds"] = {"llm": llm.counters.requests, "system_one": s1.counters.requests}
            res["tokens"] = [llm.counters.input_tokens, s1.counters.input_tokens]
        results[impl] = res
    return results


def run_phase(phase: str) -> dict[str, Any]:
    if phase == "jev":
        return run_jev()
    if phase.startswith(("dag_", "cdag_")):
        prefix, _, mode = phase.partition("_")
        return run_dag(mode, prefix)
    results: dict[str, Any] = {}
    for impl in IMPLS:
        with OpenAIChatServer(ga.answer_chat) as server:
            job = {"phase": phase, "base_url": server.base_url, "bench_dir": str(BENCH)}
            res = run_worker(impl, job, {"OPENAI_API_KEY": "sk-loopback-000"}, worker=WORKER, timeout=600)
            res["requests"] = server.counters.requests
            res["kinds"] = _kinds(server.counters.bodies)
            res["tokens"] = [server.counters.input_tokens, server.counters.output_tokens]
        results[impl] = res
    return results


def _score(row: dict[str, Any] | None) -> Any:
    if not row or row.get("score", row.get("winner")) is None:
        return None
    if "winner" in row:  # an arena: the winner's name (compared as is)
        return row["winner"]
    return float(row["score"])


def report(phase: str, results: dict[str, Any]) -> tuple[int, int]:
    theirs, ours = results["deepeval"], results["ours"]
    for impl in IMPLS:
        if results[impl].get("error"):
            print(
                f"[{phase}] {impl} worker error:\n{results[impl]['error']}\n{results[impl].get('stderr_tail', '')}"
            )
    same = total = 0
    print(f"\n## phase {phase}")
    print("| case | config | 4.3.1 score | our score | same |")
    print("|---|---|---|---|---|")
    tables = {"conv": ga.conv_cases, "jev": ga.jev_cases, "arena": ga.arena_cases}
    chosen = (ga.dag_cases if "dag_" in phase else tables.get(phase, ga.cases))()
    for c in chosen:
        ra, rb = theirs["cases"].get(c["id"]) or {}, ours["cases"].get(c["id"]) or {}
        a, b = _score(ra), _score(rb)
        if isinstance(a, str) or isinstance(b, str):
            ok = a is not None and a == b == c.get("winner")
        else:
            ok = a is not None and b is not None and abs(a - b) <= 1e-9
        # jev: the whole breakdown too (every question's value, probabilities, confidence) and the name
        if phase == "jev":
            ok = ok and all(
                json.dumps(ra.get(k), sort_keys=True) == json.dumps(rb.get(k), sort_keys=True)
                for k in ("breakdown", "confidence", "name")
            )
        same += ok
        total += 1
        cfg = c.get("config", {})
        desc = ("steps" if "evaluation_steps" in cfg else "criteria") + ("+rubric" if "rubric" in cfg else "")
        if phase == "arena":
            desc = f"{len(c['contestants'])} contestants"
        if "dag_" in phase:
            desc = ("conversation, " if phase.startswith("cdag") else "") + c["shape"]
        if phase == "jev":
            desc = ("Conversational" if c["conv"] else "") + f"JevEval, {len(cfg['questions'])} questions"
        desc += "+strict" if cfg.get("strict") else ""
        if phase == "evaluate":
            desc = "one GEval, criteria"
        err = ""
        for impl, r in (("4.3.1", theirs), ("ours", ours)):
            row = r["cases"].get(c["id"]) or {}
            if row.get("error"):
                err += f" {impl} error: {str(row['error'])[:120]}"
        fa = "-" if a is None else a if isinstance(a, str) else f"{a:.6f}"
        fb = "-" if b is None else b if isinstance(b, str) else f"{b:.6f}"
        print(f"| {c['id']} | {desc} | {fa} | {fb} | {'yes' if ok else 'NO' + err} |")
    print(
        f"requests 4.3.1: {theirs['requests']} {theirs['kinds']}, tokens in/out {theirs.get('tokens')}, wall "
        f"{theirs.get('wall_s', 0):.2f} s; ours: {ours['requests']} {ours['kinds']}, tokens in/out "
        f"{ours.get('tokens')}, wall {ours.get('wall_s', 0):.2f} s"
    )
    return same, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--phases", default="openai,custom,evaluate,conv,jev,dag_llm,dag_hybrid,cdag_llm,cdag_hybrid,arena"
    )
    args = ap.parse_args()
    everything: dict[str, Any] = {}
    bad = 0
    for phase in args.phases.split(","):
        results = run_phase(phase)
        everything[phase] = results
        same, total = report(phase, results)
        bad += total - same
        print(f"[{phase}] identical scores: {same}/{total}")
    if args.out:
        args.out.write_text(json.dumps(everything, indent=1, default=str))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
