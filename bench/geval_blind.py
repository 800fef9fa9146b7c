"""GEval judge quality on the blind criteria-score set (``training/blind/v3/criteria_score.jsonl``, LABELS.md
"Criteria score"): Spearman and MAE against the labelled 0-10 score, and how often the score falls in the labelled
band, for ours in each eval mode and for deepeval 4.3.1 (llm only: its GEval has no System One path), on the same
OpenAI-compatible judge.

Usage (a judge server must be running, e.g. llama.cpp with the 1.5B model; nothing else is contacted)::

    python bench/geval_blind.py --base-url http://127.0.0.1:8080/v1 [--model gpt-4.1] [--modes llm,hybrid,system_one]
        [--impls ours,deepeval] [--split blind_test] [--out FILE]

``--model`` is the name sent to the server (llama.cpp ignores it; 4.3.1 uses log-probabilities only for OpenAI model
names it knows, so the default is ``gpt-4.1``). In hybrid and system_one mode ours uses the same server as its System
One judge through its log-probabilities (``LogprobSystemOneModel``). Each implementation runs in a sealed subprocess
(:func:`bench.harness.run_worker`). Frozen set: its sha256 is checked against ``SHA256SUMS``.
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

from bench.harness import BENCH, REPO, run_worker

SET = REPO / "training" / "blind" / "v3" / "criteria_score.jsonl"
WORKER = BENCH / "_geval_worker.py"


def load_items(split: str | None) -> list[dict[str, Any]]:
    """The set's items (of ``split`` when given), after checking the file against ``SHA256SUMS``."""
    sums = (SET.parent / "SHA256SUMS").read_text(encoding="utf-8")
    digest = hashlib.sha256(SET.read_bytes()).hexdigest()
    if digest not in sums:
        raise SystemExit(f"{SET} changed: sha256 {digest} is not in SHA256SUMS")
    items = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    if split:
        splits = json.loads((SET.parent / "SPLITS.json").read_text(encoding="utf-8"))
        items = [i for i in items if splits.get(i["id"]) == split]
    return items


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float | None:
    """Spearman's rho (Pearson on average ranks); None with fewer than 3 pairs or a constant side."""
    if len(a) < 3:
        return None
    ra, rb = _ranks(a), _ranks(b)
    try:
        return statistics.correlation(ra, rb)
    except statistics.StatisticsError:
        return None


def in_band(score: float, band: str) -> bool:
    low, _, high = band.partition("-")
    return float(low) <= score <= float(high or low)


def summary(items: list[dict[str, Any]], rows: dict[str, Any]) -> dict[str, Any]:
    """Agreement of the measured 0-10 scores (score x 10) with the labels; errored items counted apart."""
    gold, got, band_hits = [], [], 0
    errors = 0
    for item in items:
        row = rows.get(item["id"]) or {}
        if row.get("score") is None:
            errors += 1
            continue
        value = 10 * float(row["score"])
        gold.append(float(item["score"]))
        got.append(value)
        band_hits += in_band(round(value), item["score_band"])
    return {
        "items": len(items),
        "errors": errors,
        "spearman": spearman(gold, got),
        "mae": statistics.fmean(abs(g - x) for g, x in zip(gold, got, strict=True)) if got else None,
        "in_band": band_hits / len(got) if got else None,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base-url", default=None)
    ap.add_argument(
        "--ready",
        type=Path,
        default=None,
        help="bench/llama_server.py's READY.json (its base_url and api_key)",
    )
    ap.add_argument("--model", default="gpt-4.1")
    ap.add_argument("--modes", default="llm,hybrid,system_one")
    ap.add_argument("--impls", default="ours,deepeval")
    ap.add_argument("--split", default=None)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    api_key = "sk-blind-bench"
    if args.ready is not None:
        ready = json.loads(args.ready.read_text(encoding="utf-8"))
        args.base_url, api_key = ready["base_url"], ready["api_key"]
    if not args.base_url:
        ap.error("give --base-url or --ready")
    items = load_items(args.split)
    results: dict[str, Any] = {}
    print("| impl | mode | items | errors | Spearman | MAE (0-10) | in band |")
    print("|---|---|---|---|---|---|---|")
    for impl in args.impls.split(","):
        for mode in args.modes.split(","):
            if impl == "deepeval" and mode != "llm":
                continue  # 4.3.1's GEval has no eval modes
            job = {
                "phase": "blind",
                "mode": mode,
                "base_url": args.base_url,
                "model": args.model,
                "api_key": api_key,
                "items": items,
                "bench_dir": str(BENCH),
            }
            res = run_worker(impl, job, {"OPENAI_API_KEY": api_key}, worker=WORKER, timeout=3600)
            if res.get("error"):
                print(f"{impl} {mode}: worker error\n{res['error']}\n{res.get('stderr_tail', '')}")
            s = summary(items, res.get("cases", {}))
            results[f"{impl}/{mode}"] = {**s, "wall_s": res.get("wall_s"), "rows": res.get("cases", {})}

            def f(v: Any) -> str:
                return "-" if v is None else f"{v:.3f}"

            print(
                f"| {impl} | {mode} | {s['items']} | {s['errors']} | {f(s['spearman'])} | {f(s['mae'])} | "
                f"{f(s['in_band'])} |"
            )
    if args.out:
        args.out.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
