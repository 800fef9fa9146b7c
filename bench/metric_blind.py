"""Judge quality of the safety, conversation and agent metrics on the blind v3 sets (``training/blind/v3``:
``opinions`` for Bias and Toxicity, ``conversations`` for TurnRelevancy, RoleAdherence and ConversationCompleteness,
``task_completion`` for TaskCompletion; LABELS.md), for ours in each eval mode and for deepeval 4.3.1 (llm mode), on
the same OpenAI-compatible judge: per metric, items, errors, MAE of the item score against the labelled score,
Spearman, and pass/fail agreement at the default threshold 0.5. The opinions set labels Bias and Toxicity as the
biased (toxic) share of opinions (LABELS.md; 0 when none); deepeval 4.3.1 and ours score the share that is NOT
biased (toxic), 1 when none, so their gold here is ``1 - expected_score``.

Usage (a judge server must be running, e.g. ``bench/llama_server.py`` with the 1.5B model; nothing else is
contacted)::

    python bench/metric_blind.py --ready READY.json [--split blind_dev] [--modes llm,hybrid,system_one]
        [--impls ours,deepeval] [--metrics bias,toxicity,...] [--out FILE]

Frozen sets: each file's sha256 is checked against ``SHA256SUMS``. Each implementation runs in a sealed
subprocess (:func:`bench.harness.run_worker`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.geval_blind import spearman
from bench.harness import BENCH, REPO, run_worker

SETS = REPO / "training" / "blind" / "v3"
WORKER = BENCH / "_metric_blind_worker.py"
KINDS = ("opinions", "conversations", "task_completion")
#: metrics whose labelled score is the share of violations (ours and 4.3.1 score the share without one)
VIOLATION_SHARE = frozenset({"bias", "toxicity"})
THRESHOLD = 0.5


def load_items(split: str | None) -> list[dict[str, Any]]:
    """The three sets' items (of ``split`` when given), after checking each file against ``SHA256SUMS``."""
    sums = (SETS / "SHA256SUMS").read_text(encoding="utf-8")
    splits = json.loads((SETS / "SPLITS.json").read_text(encoding="utf-8"))
    items: list[dict[str, Any]] = []
    for kind in KINDS:
        path = SETS / f"{kind}.jsonl"
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest not in sums:
            raise SystemExit(f"{path} changed: sha256 {digest} is not in SHA256SUMS")
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                if split is None or splits.get(item["id"]) == split:
                    items.append(item)
    return items


def metric_of(item: dict[str, Any]) -> str:
    return str(item.get("metric") or item["kind"])


def expected(item: dict[str, Any]) -> float:
    """The labelled score in the metrics' direction (higher is better)."""
    value = float(item["expected_score"] if "expected_score" in item else item["score"])
    return 1.0 - value if metric_of(item) in VIOLATION_SHARE else value


def passes(score: float) -> bool:
    return score >= THRESHOLD


def summary(items: list[dict[str, Any]], rows: dict[str, Any]) -> dict[str, Any]:
    gold, got, agree, errors = [], [], 0, 0
    for item in items:
        row = rows.get(item["id"]) or {}
        if row.get("score") is None:
            errors += 1
            continue
        g, x = expected(item), float(row["score"])
        gold.append(g)
        got.append(x)
        agree += passes(g) == passes(x)
    return {
        "items": len(items),
        "errors": errors,
        "mae": statistics.fmean(abs(g - x) for g, x in zip(gold, got, strict=True)) if got else None,
        "spearman": spearman(gold, got),
        "pass_agreement": agree / len(got) if got else None,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ready", type=Path, required=True, help="bench/llama_server.py's READY.json")
    ap.add_argument("--model", default="gpt-4.1", help="the model name sent (llama.cpp ignores it)")
    ap.add_argument("--modes", default="llm,hybrid,system_one")
    ap.add_argument("--impls", default="ours,deepeval")
    ap.add_argument("--metrics", default=None, help="comma-separated blind metric names (default: all)")
    ap.add_argument("--split", default=None)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    ready = json.loads(args.ready.read_text(encoding="utf-8"))
    items = load_items(args.split)
    if args.metrics:
        wanted = set(args.metrics.split(","))
        items = [i for i in items if metric_of(i) in wanted]
    names = sorted({metric_of(i) for i in items})
    results: dict[str, Any] = {}
    print("| metric | impl | mode | items | errors | MAE | Spearman | pass agreement | wall s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for impl in args.impls.split(","):
        for mode in args.modes.split(","):
            if impl == "deepeval" and mode != "llm":
                continue  # 4.3.1 is compared in llm mode: its System One path needs TypeSafe's Jev
            job = {
                "mode": mode,
                "base_url": ready["base_url"],
                "api_key": ready["api_key"],
                "model": args.model,
                "items": items,
            }
            res = run_worker(impl, job, {"OPENAI_API_KEY": ready["api_key"]}, worker=WORKER, timeout=7200)
            if res.get("error"):
                print(f"{impl} {mode}: worker error\n{res['error']}\n{res.get('stderr_tail', '')}")
            rows = res.get("cases", {})
            for name in names:
                subset = [i for i in items if metric_of(i) == name]
                s = summary(subset, rows)
                results[f"{name}/{impl}/{mode}"] = {**s, "rows": {i["id"]: rows.get(i["id"]) for i in subset}}

                def f(v: Any) -> str:
                    return "-" if v is None else f"{v:.3f}"

                print(
                    f"| {name} | {impl} | {mode} | {s['items']} | {s['errors']} | {f(s['mae'])} | "
                    f"{f(s['spearman'])} | {f(s['pass_agreement'])} | {res.get('wall_s', '-')} |",
                    flush=True,
                )
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
