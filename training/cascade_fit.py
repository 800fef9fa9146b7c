"""Choose the cascade's bands and reader calibrations on blind-dev (never on blind-test).

Runs ``deepeval judge-eval``'s code on the blind-dev sets with the embedded judge and the local reader, with every
encoder band widened to ``--window`` so that the reader is asked about every unit the encoder is not clearly sure
of; each unit then carries the encoder's P and the reader's P (``stages``). Then, per kind, it fits the reader's
logistic calibration (P(label) from logit(reader P), by maximum likelihood) on those units, and searches the encoder
band and the reader band that give the best accuracy among units decided, with the share left unsure and the share
sent to the reader shown beside it. It prints the table and the Python literals for
``deepeval/models/embedded/cascade.py``; it writes nothing into the package.

    python training/cascade_fit.py --reader /work/models/<reader>.gguf --reader-cache /tmp/reader.jsonl \\
        [--metric answer_relevancy ...] [--limit 20] [--window 0.05 0.95]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from deepeval.judge_eval import a_run, load_items  # noqa: E402
from deepeval.models.embedded import cascade  # noqa: E402
from deepeval.models.system_one import kinds as K  # noqa: E402
from training.blind_eval import judges  # noqa: E402
from training.reader_tools import add_reader_args, reader_from_args, reader_note  # noqa: E402

BLIND = REPO / "training" / "blind"
#: metric -> the kind its units are asked as
KIND = {
    "answer_relevancy": K.STATEMENT_RELEVANT,
    "contextual_relevancy": K.CONTEXT_STATEMENT_RELEVANT,
    "knowledge_retention": K.TURN_ATTRITION,
    "claim_support": K.CLAIM_SUPPORTED,
    "fact_stated": K.FACT_STATED,
}
DEV = sorted(KIND)


def dev_files(metric: str) -> list[Path]:
    """Every blind-dev file of ``metric`` (the first set and dev2), never a blind-test file."""
    name = "blind_dev.jsonl" if metric == "knowledge_retention" else f"{metric}.blind_dev.jsonl"
    folders = ("kr", "dev2/kr") if metric == "knowledge_retention" else ("rel", "dev2/rel")
    return [BLIND / f / name for f in folders if (BLIND / f / name).exists()]


def _logit(p: float) -> float:
    p = min(1 - 1e-4, max(1e-4, p))
    return math.log(p / (1 - p))


def fit_calibration(
    rows: list[tuple[float, float, int]], use_encoder: bool = True
) -> tuple[float, float, float]:
    """``(a, b, c)`` maximising the likelihood of ``y ~ sigmoid(a + b * logit(r) + c * logit(p))`` over rows
    ``(r, p, y)`` (reader P, encoder P, label); Newton steps with a small ridge; ``c = 0`` unless ``use_encoder``."""
    import numpy as np

    x = np.array([[1.0, _logit(r), _logit(p)] for r, p, _ in rows])
    if not use_encoder:
        x[:, 2] = 0.0
    y = np.array([float(v) for _, _, v in rows])
    w = np.zeros(3)
    ridge = 1e-2 * np.eye(3)
    for _ in range(100):
        q = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (y - q) - ridge @ w
        hess = (x * (q * (1 - q))[:, None]).T @ x + ridge
        w = w + np.linalg.solve(hess, grad)
    return float(w[0]), float(w[1]), float(w[2])


def search(units: list[dict[str, Any]], cal: cascade.Calibration, max_unsure: float) -> list[dict[str, Any]]:
    """Accuracy, unsure share and reader share of every (encoder band, reader band) on the grid, best first among
    those leaving at most ``max_unsure`` of the units unsure."""
    grid = [round(0.05 * i, 2) for i in range(1, 20)]
    out = []
    for lo in grid:
        for hi in grid:
            if hi <= lo:
                continue
            for width in (0.0, 0.1, 0.2, 0.3):
                band = cascade.Band(0.5 - width / 2, 0.5 + width / 2)
                right = decided = unsure = asked = 0
                for u in units:
                    p, r, y = u["p_enc"], u["p_read"], u["y"]
                    if not (lo < p < hi):
                        decided += 1
                        right += (p >= 0.5) == y
                        continue
                    asked += 1
                    q = cal(r, p) if r is not None else None
                    if q is None or band.unsure(q):
                        unsure += 1
                        continue
                    decided += 1
                    right += (q >= 0.5) == y
                n = len(units)
                if unsure / n <= max_unsure:
                    out.append({"encoder_band": (lo, hi), "reader_band": (band.low, band.high),
                                "accuracy_decided": right / max(1, decided), "unsure": unsure / n,
                                "reader_share": asked / n, "right_all": right / n})  # fmt: skip
    return sorted(out, key=lambda d: (-d["right_all"], d["reader_share"]))


async def _no_item_score(self: Any, test_case: Any) -> tuple[None, None, float]:
    return None, None, 0.0


def collect(metric: str, reader: Any, limit: int | None) -> list[dict[str, Any]]:
    """Units of the metric's blind-dev sets with the encoder's and the reader's P (item scores are skipped: the
    fit reads units only)."""
    from deepeval.judge_eval import runners

    runners.Judging.item_score = _no_item_score  # type: ignore[method-assign]
    out: list[dict[str, Any]] = []
    for path in dev_files(metric):
        items = load_items(path, metric)[:limit]
        run = asyncio.run(a_run(metric, items, max_concurrent=1, **judges(metric, reader)))
        for u in run.units:
            if u.p is None:
                continue
            stages = u.stages or {}
            p_enc = stages.get("encoder", u.p)
            out.append({"id": u.item_id, "where": u.where, "y": int(u.positive), "p_enc": float(p_enc),
                        "p_read": stages.get("reader"), "tags": u.tags, "file": path.name})  # fmt: skip
    return out


def report(title: str, units: list[dict[str, Any]], max_unsure: float) -> None:
    """Fit the calibration on the units the reader answered and print the best bands."""
    read = [(u["p_read"], u["p_enc"], u["y"]) for u in units if u["p_read"] is not None]
    a, b, c = fit_calibration(read) if len(read) >= 5 else (0.0, 1.0, 0.0)
    cal = cascade.Calibration(a, b, cascade.Band(0.5, 0.5), c)
    enc = sum((u["p_enc"] >= 0.5) == bool(u["y"]) for u in units) / max(1, len(units))
    print(f"== {title}: {len(units)} units (encoder alone: accuracy {enc:.3f}), reader asked {len(read)}; "
          f"calibration a={a:.3f} b={b:.3f} c={c:.3f}")  # fmt: skip
    for row in search(units, cal, max_unsure)[:8]:
        print("   " + json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in row.items()}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", action="append", choices=sorted(DEV), help="metric(s) to fit (default all)")
    ap.add_argument("--limit", type=int, default=None, help="first N items of each dev file")
    ap.add_argument("--window", type=float, nargs=2, default=(0.05, 0.95), help="widened encoder band")
    ap.add_argument(
        "--max-unsure", type=float, default=0.15, help="most units a configuration may leave unsure"
    )
    ap.add_argument("--units", type=Path, default=None, help="write the collected units (JSON) here")
    ap.add_argument("--from-units", type=Path, nargs="+", default=None,
                    help="fit on units collected before (JSON written by --units, or a list of units)")  # fmt: skip
    add_reader_args(ap)
    args = ap.parse_args()
    if args.from_units:
        units: list[dict[str, Any]] = []
        for f in args.from_units:
            got = json.loads(f.read_text())
            units += [u for v in got.values() for u in v] if isinstance(got, dict) else got
        report("units from " + ", ".join(f.name for f in args.from_units), units, args.max_unsure)
        return
    reader = reader_from_args(args)
    if reader is None:
        raise SystemExit("cascade_fit needs --reader (or --from-units)")
    lo, hi = args.window
    for kind in list(cascade.ENCODER_BANDS):
        cascade.ENCODER_BANDS[kind] = cascade.Band(lo, hi)
    everything: dict[str, list[dict[str, Any]]] = {}
    for metric in args.metric or sorted(DEV):
        units = collect(metric, reader, args.limit)
        everything[metric] = units
        report(metric, units, args.max_unsure)
        print(f"   {reader_note(reader)}")
    if args.units is not None:
        args.units.write_text(json.dumps(everything, indent=1))


if __name__ == "__main__":
    main()
