"""The reader's answer to the ``claim_contradicted`` question on the blind v3 units the encoder cannot rule out,
for choosing (or refusing) a reader calibration of the kind on blind-dev (h-contra; ``bench/RESULTS.md``).

    /work/heavy python bench/contradiction_units.py --split blind_dev --variant v1 \
        --reader /work/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf --reader-cache C.jsonl --out U.json
    python bench/contradiction_units.py --report U.json

Units: every labelled Faithfulness claim against its item's retrieval context joined by blank lines, and every
Hallucination document against the item's output (claim = the output, source = the document). For each: the
encoder's P(supported) and P(contradicted) (:func:`deepeval.models.embedded.scorers.claim_contradicted`), and where
the encoder cannot rule a contradiction out, the reader's first-token P(yes). ``--variant``: ``v1`` the shipped
prompt (``reader_prompts.claim_contradicted``); ``v2`` "according to the source, is the claim false?"; ``v3`` "does
the source say something different about what the claim talks about?" (v2 and v3 are measured here only). The
report: AUROC of the reader's P against the label ``contradicted`` per metric, the accuracy of a cut against the
majority, and a two-parameter logistic fit (``Calibration(a, b)``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

from rag_blind import load  # noqa: E402
from training.evalmetrics import auroc  # noqa: E402
from training.reader_tools import add_reader_args, reader_from_args  # noqa: E402

from deepeval.models.embedded import reader_prompts as RP  # noqa: E402
from deepeval.models.embedded import scorers  # noqa: E402
from deepeval.models.system_one import kinds as K  # noqa: E402

_V2_HEAD = (
    "You check a claim against a source text. The claim is FALSE according to the source when the source gives a "
    "different value for the same thing (a number, date, time, price, name or place), says the opposite, or rules "
    "out what the claim says. The claim is NOT false when the source confirms it, and NOT false when the source "
    f"does not mention it. {RP._DATA}"
)
_V3_HEAD = (
    "You compare a claim with a source text. Answer Yes only when the source talks about the same thing as the "
    "claim and says something different about it: a different number, date, time, price, name or place, or the "
    "opposite. Answer No when the source says the same as the claim in any words, and No when the source says "
    f"nothing about it. {RP._DATA}"
)


def _variant(head: str, question: str) -> Any:
    def make(f: Any) -> RP.ReaderPrompt:
        body = f"Source:\n{RP._cut(str(f['source']))}\n\nClaim: {RP._cut(str(f['claim']), 3000)}"
        return RP.ReaderPrompt(head, body, RP._yes_no(question))

    return make


VARIANTS = {
    "v1": RP.claim_contradicted,
    "v2": _variant(_V2_HEAD, "According to the source, is the claim false?"),
    "v3": _variant(_V3_HEAD, "Does the source say something different about what the claim talks about?"),
}


def pairs(split: str) -> list[tuple[str, dict[str, Any], str, str, str]]:
    out = []
    for item in load("faithfulness", split):
        source = "\n\n".join(item["retrieval_context"])
        out += [("faithfulness", item, c["claim"], source, c["label"]) for c in item["claims"]]
    for item in load("hallucination", split):
        out += [
            ("hallucination", item, item["actual_output"], d, lab)
            for d, lab in zip(item["context"], item["contexts"], strict=True)
        ]
    return out


async def collect(args: argparse.Namespace) -> list[dict[str, Any]]:
    RP.PROMPTS[K.CLAIM_CONTRADICTED] = VARIANTS[args.variant]
    reader = reader_from_args(args)
    rows = []
    for kind, item, claim, source, label in pairs(args.split):
        ps, pc = scorers.claim_supported(claim, source), scorers.claim_contradicted(claim, source)
        r = None
        if reader is not None and pc > 0.2:
            answer = await reader.a_answer(K.CLAIM_CONTRADICTED, {"claim": claim, "source": source})
            r = None if answer is None else answer.probability
        rows.append(
            {"kind": kind, "item": item["id"], "label": label, "ps": ps, "pc": pc, "r": r, "claim": claim}
        )
    return rows


def _logit(p: float) -> float:
    p = min(1 - 1e-4, max(1e-4, p))
    return math.log(p / (1 - p))


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    design = np.c_[np.ones(len(x)), x]
    w = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ w))
        grad = design.T @ (p - y) + 1e-3 * w
        hess = (design.T * (p * (1 - p))) @ design + 1e-3 * np.eye(2)
        w -= np.linalg.solve(hess, grad)
    return float(w[0]), float(w[1])


def report(rows: list[dict[str, Any]]) -> None:
    for kind in ("faithfulness", "hallucination"):
        rs = [r for r in rows if r["kind"] == kind and r["r"] is not None]
        if not rs:
            continue
        y = np.array([r["label"] == "contradicted" for r in rs], float)
        p = np.array([r["r"] for r in rs])
        a, b = _fit(np.array([_logit(v) for v in p]), y)
        best = max((float(np.mean((p >= c) == y)), c) for c in np.arange(0.05, 1.0, 0.05))
        print(
            f"{kind}: {len(rs)} units read, {int(y.sum())} contradicted; AUROC {auroc(y, p):.3f}; "
            f"majority {max(y.mean(), 1 - y.mean()):.3f}; best cut {best[1]:.2f} acc {best[0]:.3f}; "
            f"fit a={a:.3f} b={b:.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--split", choices=("blind_dev",), default="blind_dev", help="blind-dev only: a tuning set"
    )
    ap.add_argument("--variant", choices=tuple(VARIANTS), default="v1")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--report", type=Path, default=None, help="report a units file written by --out")
    add_reader_args(ap)
    args = ap.parse_args()
    if args.report is not None:
        report(json.loads(args.report.read_text(encoding="utf-8")))
        return
    rows = asyncio.run(collect(args))
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    report(rows)


if __name__ == "__main__":
    main()
