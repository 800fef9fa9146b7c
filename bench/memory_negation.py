"""The offline memory grader on the polarity set (``training/blind/memory_negation``): memories that mention the
expected value while denying, undoing, excluding, bounding or mocking it (``not_affirmed``), and memories that
affirm it beside negations of something else (``affirmed``), graded 1-5 by a labeller who saw only LABELS.md.

Each item is probed as a one-fact memory: the embedded judge answers the question from the memory (retrieval, and
the reader when one is configured) and grades the answer, as ``deepeval memory`` does.

Usage::

    DEEPEVAL_READER=off python bench/memory_negation.py --split blind-dev [--detail] [--json OUT]
    python bench/memory_negation.py --split blind-dev --reader MODEL.gguf --reader-cache C.jsonl

Protocol (``training/blind/README.md``): blind-dev failures may be read (``--detail``); blind-test is only scored.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

SET = ROOT / "training" / "blind" / "memory_negation" / "memory_negation.jsonl"


async def _grade_all(items: list[dict[str, Any]], reader: Any) -> list[dict[str, Any]]:
    from deepeval.memory.artifact import MemoryArtifact
    from deepeval.memory.judges import EmbeddedMemoryJudge

    judge = EmbeddedMemoryJudge(reader=reader)
    out = []
    for it in items:
        memory = MemoryArtifact.from_text(it["memory"])
        a = await judge.answer(it["question"], memory)
        g = await judge.grade(it["question"], it["expected"], a.answer, list(it.get("outdated") or []))
        out.append({**it, "got": g.score, "reason": g.reason, "answer": a.answer, "tier": a.tier})
    return out


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    neg = [r for r in rows if r["polarity"] == "not_affirmed"]
    aff = [r for r in rows if r["polarity"] == "affirmed"]
    return {
        "items": len(rows),
        "exact": sum(r["got"] == r["grade"] for r in rows),
        "within_1": sum(abs(r["got"] - r["grade"]) <= 1 for r in rows),
        "not_affirmed": len(neg),
        "not_affirmed_graded_4_or_5": sum(r["got"] >= 4 for r in neg),
        "affirmed": len(aff),
        "affirmed_graded_1_or_2": sum(r["got"] <= 2 for r in aff),
        "mean_abs_error": round(sum(abs(r["got"] - r["grade"]) for r in rows) / max(len(rows), 1), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=["blind-dev", "blind-test"], required=True)
    ap.add_argument("--detail", action="store_true", help="print each item that misses (blind-dev only)")
    ap.add_argument("--json", type=Path, help="write the rows and the summary here")
    add_reader_args(ap)
    args = ap.parse_args()
    reader = reader_from_args(args)
    if args.detail and args.split == "blind-test":
        ap.error("--detail is for blind-dev: blind-test is only scored")
    items = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = asyncio.run(_grade_all([it for it in items if it["split"] == args.split], reader))
    summary = _summary(rows)
    print(reader_note(reader))
    print(f"split {args.split}: {json.dumps(summary)}")
    if args.detail:
        for r in rows:
            bad = (r["polarity"] == "not_affirmed" and r["got"] >= 4) or (
                r["polarity"] == "affirmed" and r["got"] <= 2
            )
            if r["got"] != r["grade"]:
                print(
                    f"{'BAD ' if bad else '    '}{r['id']} {r['family']:18s} got {r['got']} want {r['grade']}: "
                    f"{r['memory']!r} [{r['expected']}] :: {r['reason'][:90]}"
                )
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
