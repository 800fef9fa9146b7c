"""The embedded judge's per-turn KnowledgeRetention verdicts against a labelled set (our blind-set schema,
training/blind/SCHEMA.md).

Run from the repo root with the venv active::

    python bench/kr_blind.py training/blind/kr/blind_dev.jsonl [--failures] [--json OUT]
    python bench/kr_blind.py FILE --reader MODEL.gguf [--reader-cache C.jsonl] [--timing 10]

With ``--reader`` the turns are judged as the metric judges them (``deepeval judge-eval``'s code, hybrid mode on the
embedded judge with the local reader behind it: the cascade of ``deepeval.models.embedded.cascade``): the same
numbers, plus which stage decided (encoder / reader / unsure) and the share of turns sent to the reader.
``--timing N`` measures the KnowledgeRetention metric's wall time on the first N conversations cut to their first
10 turns, with the reader asked for real (no answer cache): median seconds per 10-turn conversation.

For every labelled assistant turn it asks what the metric asks in system_one / hybrid mode on the embedded judge:
the facts the deterministic extractor finds in the user turns before it, the user turn just before, and
``P(attrition)`` of the turn (:func:`deepeval.metrics.knowledge_retention.embedded.retention_turns`). A turn the judge does not
check (no fact before it) counts as ``P(attrition) = 0.005``, as in the metric. Positive class = forgets. Prints turn
accuracy, recall of keeps (keeps turns judged as keeping), AUROC, Brier, ECE (10 bins), the share of "unsure" turns
(0.35 < P < 0.65) and their accuracy, per-tag accuracy, and the trivial baseline (always keeps).
``--failures`` lists the wrong turns (read it on blind-dev only: blind-test is scored, never read).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from training.evalmetrics import summary  # noqa: E402
from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

from deepeval.metrics.knowledge_retention import embedded as kr_embedded  # noqa: E402
from deepeval.models.embedded import encoder, evidence  # noqa: E402

UNSURE = (0.35, 0.65)


def score_file(path: Path) -> list[dict[str, object]]:
    """One row per labelled turn: id, turn, label (1 = forgets), p (attrition), the strongest evidence, tags."""
    rows: list[dict[str, object]] = []
    seen: list[str] = []
    plain = evidence.attrition

    def recording(feats: evidence.Features, fitted: float | None = None) -> tuple[str, float]:
        got = plain(feats, fitted)
        seen.append(got[0])
        return got

    evidence.attrition = recording  # type: ignore[assignment]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        probs: dict[int, dict[str, float]] = {}
        rules: dict[int, str] = {}
        checked = kr_embedded.retention_turns({"turns": item["turns"]})
        # one evidence call per checked turn, in order (a turn whose facts were all instructions makes none)
        names = seen if len(seen) == len(checked) else ["?"] * len(checked)
        for (i, got), rule in zip(checked, names, strict=True):
            probs[i] = got
            rules[i] = rule
        seen.clear()
        for lab in item["labels"]:
            p = probs.get(lab["turn"], {}).get("attrition", 0.005)
            rows.append(
                {
                    "id": item["id"],
                    "turn": lab["turn"],
                    "y": int(lab["label"] == "forgets"),
                    "p": p,
                    "tags": lab.get("tags", []),
                    "evidence": rules.get(lab["turn"], "unchecked"),
                    "content": item["turns"][lab["turn"]]["content"],
                }
            )
    evidence.attrition = plain  # type: ignore[assignment]
    return rows


def score_file_cascade(path: Path, reader: object) -> list[dict[str, object]]:
    """One row per labelled turn, judged as the metric judges it with ``reader`` behind the embedded judge."""
    import asyncio

    from deepeval.judge_eval import a_run, load_items
    from deepeval.models.embedded.judge import EmbeddedJudge

    items = load_items(path, "knowledge_retention")
    run = asyncio.run(
        a_run("knowledge_retention", items, system_one_model=EmbeddedJudge(reader), eval_mode="hybrid")  # type: ignore[arg-type]
    )
    return [
        {"id": u.item_id, "turn": u.where, "y": int(u.positive), "p": u.p if u.p is not None else 0.5,
         "tags": u.tags, "evidence": u.tier or "?", "content": u.text, "tier": u.tier}
        for u in run.units
    ]  # fmt: skip


def timing(path: Path, model: str, threads: int, n: int) -> dict[str, object]:
    """Median wall seconds of the KnowledgeRetention metric (hybrid, embedded judge + a fresh reader over ``model``,
    no answer cache) per conversation cut to its first 10 turns, over the first ``n`` conversations of ``path``."""
    import os
    import statistics
    import time

    from deepeval.metrics import KnowledgeRetentionMetric
    from deepeval.models.embedded.judge import EmbeddedJudge
    from deepeval.models.embedded.reader import gguf_reader
    from deepeval.test_case import ConversationalTestCase, Turn

    reader = gguf_reader(Path(model), threads)
    reader.llm()  # loaded before the clock starts (a process loads it once)
    judge = EmbeddedJudge(reader)
    seconds: list[float] = []
    shares: list[float] = []
    for line in path.read_text(encoding="utf-8").splitlines()[:n]:
        item = json.loads(line)
        turns = [Turn(role=t["role"], content=t["content"]) for t in item["turns"][:10]]
        metric = KnowledgeRetentionMetric(system_one_model=judge, include_reason=False, eval_mode="hybrid")
        t0 = time.perf_counter()
        metric.measure(ConversationalTestCase(turns=turns))
        seconds.append(time.perf_counter() - t0)
        b = metric.score_breakdown or {}
        checked = b.get("checked_turns") or 0
        if checked:
            shares.append((checked - b.get("decided_by_encoder", checked)) / checked)
    return {
        "conversations": len(seconds),
        "median_s_per_10_turns": statistics.median(seconds) if seconds else None,
        "max_s": max(seconds) if seconds else None,
        "reader_share_mean": sum(shares) / len(shares) if shares else None,
        "load_average": os.getloadavg(),
    }


def report(rows: list[dict[str, object]]) -> dict[str, object]:
    y = np.array([r["y"] for r in rows], dtype=float)
    p = np.array([r["p"] for r in rows], dtype=float)
    s = summary(y, p)
    keeps = y == 0
    unsure = (p > UNSURE[0]) & (p < UNSURE[1])
    by_tag: dict[str, list[bool]] = defaultdict(list)
    for r, pi in zip(rows, p, strict=True):
        for t in r["tags"]:  # type: ignore[attr-defined]
            by_tag[t].append((pi >= 0.5) == (r["y"] == 1))
    return {
        **s,
        "keeps_recall": float(np.mean(p[keeps] < 0.5)) if keeps.any() else float("nan"),
        "forgets_recall": float(np.mean(p[~keeps] >= 0.5)) if (~keeps).any() else float("nan"),
        "unsure_share": float(unsure.mean()),
        "accuracy_sure": float(np.mean((p[~unsure] >= 0.5) == (y[~unsure] == 1))) if (~unsure).any() else 0.0,
        "baseline_always_keeps": float(keeps.mean()),
        "per_tag": {t: (float(np.mean(v)), len(v)) for t, v in sorted(by_tag.items())},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--failures", action="store_true", help="list wrong turns (blind-dev only)")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    ap.add_argument(
        "--evidence", action="store_true", help="(forgets, turns) per strongest evidence (blind-dev only)"
    )
    ap.add_argument("--cache", type=Path, help="an encoder cache (.npz) to read before and write after")
    ap.add_argument(
        "--timing", type=int, default=0, help="time the metric on the first N conversations (10 turns)"
    )
    add_reader_args(ap)
    args = ap.parse_args()
    reader = reader_from_args(args)
    if args.cache:
        encoder.set_cache_size(200_000)
        if args.cache.exists():
            encoder.load_cache(str(args.cache))
    out = {}
    for f in args.files:
        rows = score_file(f) if reader is None else score_file_cascade(f, reader)
        rep = report(rows)
        tiers = [r.get("tier") for r in rows if r.get("tier")]
        if tiers:
            rep["tiers"] = {t: tiers.count(t) / len(tiers) for t in ("encoder", "reader", "unsure")}
            print(f"  decided by: {rep['tiers']}   {reader_note(reader)}")  # type: ignore[arg-type]
        if args.timing:
            rep["timing"] = timing(f, args.reader, args.reader_threads, args.timing)
            print(f"  timing: {rep['timing']}")
        out[f.name] = rep
        print(f"== {f}  ({rep['n']} turns)")
        for k in ("accuracy", "keeps_recall", "forgets_recall", "auroc", "brier", "ece", "unsure_share"):
            print(f"  {k:22s} {rep[k]:.3f}")
        print(f"  {'accuracy_sure':22s} {rep['accuracy_sure']:.3f}")
        print(f"  {'baseline_always_keeps':22s} {rep['baseline_always_keeps']:.3f}")
        for t, (acc, n) in rep["per_tag"].items():  # type: ignore[union-attr]
            print(f"    {t:24s} {acc:.2f}  (n={n})")
        if args.evidence:
            counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
            for r in rows:
                counts[str(r["evidence"])][0] += int(r["y"])  # type: ignore[call-overload]
                counts[str(r["evidence"])][1] += 1
            print("  evidence counts (forgets, turns):", {k: tuple(v) for k, v in sorted(counts.items())})
        if args.failures:
            for r in rows:
                if (r["p"] >= 0.5) != (r["y"] == 1):  # type: ignore[operator]
                    lab = "forgets" if r["y"] else "keeps"
                    print(
                        f"  FAIL {r['id']} t{r['turn']} gold={lab} p={r['p']:.2f} [{r['evidence']}] {r['tags']}: "
                        f"{r['content']}"
                    )
    if args.cache:
        encoder.save_cache(str(args.cache))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
