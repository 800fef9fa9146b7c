"""Fit the blind recalibration of the embedded judge's relevance kinds on the blind-DEV sets only, and write
``src/deepeval/models/embedded/data/blind_calibration.json``.

Usage (from the repo root, venv active)::

    python training/calibrate_blind.py            # fit, print grouped 5-fold CV on blind-dev, write the file
    python training/calibrate_blind.py --no-write # CV numbers only

Per kind (``statement_relevant`` from the answer-relevancy set, ``context_statement_relevant`` from the
contextual-relevancy set), a logistic model over the first stage's logit ``z``, ``z_weak`` (``z`` when the statement
shares no content word with the request: weak evidence, whose confidence the fit may shrink towards 0.5) and the
named rules of :mod:`deepeval.models.embedded.relevance_rules`; for answer statements also ``sib_best`` and ``link``
(the statement beside the answer's most relevant other statement, :func:`scorers.statement_relevant_parts`). L2 is chosen by log-loss of a 5-fold CV grouped by
item; the CV numbers are printed (an honest estimate on blind-dev). Blind-test is never read here: score it with
``python training/blind_eval.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from deepeval.judge_eval.stats import summary  # noqa: E402
from deepeval.models.embedded import scorers  # noqa: E402
from deepeval.models.embedded import text as tx  # noqa: E402
from deepeval.models.embedded.calibrated import logit  # noqa: E402
from training.logreg import fit_logistic, sigmoid  # noqa: E402

OUT = REPO / "src" / "deepeval" / "models" / "embedded" / "data" / "blind_calibration.json"
BLIND = REPO / "training" / "blind" / "rel"
RULES = ("social", "filler", "boilerplate", "other_variant", "weak")
FEATURES = {
    "statement_relevant": ("z", "z_weak", *RULES, "sib_best", "link"),
    "context_statement_relevant": ("z", "z_weak", *RULES, "below_best", "node_best"),
}
L2_GRID = (0.3, 1.0, 3.0, 10.0, 30.0)
#: candidate margins of the item-score ramp (deepeval.models.embedded.calibrated.share_weight)
RAMP_GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35)
BAND = 0.15
FOLDS = 5


def rows(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(x, y, group, p_first_stage)`` of every blind-dev statement of ``kind`` (instructions to the evaluator,
    which the scorer answers 0.005 without a model, left out)."""
    name = "answer_relevancy" if kind == "statement_relevant" else "contextual_relevancy"
    items = [json.loads(line) for line in (BLIND / f"{name}.blind_dev.jsonl").read_text().splitlines()]
    prewarm(kind, items)
    xs, ys, groups, ps = [], [], [], []
    for g, item in enumerate(items):
        nodes = item.get("retrieval_context") or []
        answer = "\n".join(st["text"] for st in item["statements"])
        for st in item["statements"]:
            if tx.is_instruction_to_evaluator(st["text"]):
                continue
            if kind == "statement_relevant":
                p, rules = scorers.statement_relevant_parts(item["input"], st["text"], answer)
            else:
                p, rules = scorers.context_statement_relevant_parts(
                    item["input"], st["text"], nodes[st["node"]], "\n".join(nodes)
                )
            z = logit(p)
            feats = {"z": z, "z_weak": z * rules["weak"], **rules}
            xs.append([feats.get(f, np.nan) for f in FEATURES[kind]])  # NaN: not given (a lone statement)
            ys.append(1.0 if st["label"] == "relevant" else 0.0)
            groups.append(g)
            ps.append(p)
    x = np.array(xs)
    x = np.where(
        np.isnan(x), np.nanmean(x, axis=0), x
    )  # a feature not given counts as its mean, as in the scorer
    return x, np.array(ys), np.array(groups), np.array(ps)


def prewarm(kind: str, items: list[dict]) -> None:
    """Encode every text the features need in one batched request per item, as the judge does."""
    from deepeval.metrics.answer_relevancy.pipeline import PIPELINE as AR_PIPELINE
    from deepeval.metrics.pipeline import PipelineQuestions

    ar_questions = PipelineQuestions(AR_PIPELINE)
    from deepeval.metrics.contextual_relevancy.questions import ContextualRelevancyQuestions
    from deepeval.models.embedded.judge import _prefetch

    for item in items:
        if kind == "statement_relevant":
            qs = {
                f"s{i}": ar_questions.unit(st["text"], {"input": item["input"], "statement": st["text"]})
                for i, st in enumerate(item["statements"])
            }
        else:
            nodes = item["retrieval_context"]
            qs = {
                f"s{i}": ContextualRelevancyQuestions.statement_relevant(
                    item["input"], st["text"], context="\n".join(nodes), node=nodes[st["node"]]
                )
                for i, st in enumerate(item["statements"])
            }
        _prefetch({"input": item["input"]}, qs)


def _fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    mean = x.mean(axis=0)
    std = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
    w, b = fit_logistic((x - mean) / std, y, l2=l2)
    return mean, std, w, b


def _predict(model: tuple[np.ndarray, np.ndarray, np.ndarray, float], x: np.ndarray) -> np.ndarray:
    mean, std, w, b = model
    return np.clip(sigmoid(((x - mean) / std) @ w + b), 0.005, 0.995)


def _cv(x: np.ndarray, y: np.ndarray, groups: np.ndarray, l2: float) -> np.ndarray:
    fold = np.random.default_rng(16).permutation(groups.max() + 1)[groups] % FOLDS
    out = np.zeros(len(y))
    for k in range(FOLDS):
        tr, va = fold != k, fold == k
        out[va] = _predict(_fit(x[tr], y[tr], l2), x[va])
    return out


def _log_loss(y: np.ndarray, p: np.ndarray) -> float:
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def ramp(p: np.ndarray, margin: float) -> np.ndarray:
    """Each statement's weight in an item score: 0 up to ``margin``, 1 from ``1 - margin``, linear between (the
    formula of :func:`deepeval.models.embedded.calibrated.share_weight`)."""
    return np.clip((p - margin) / (1.0 - 2.0 * margin), 0.0, 1.0)


def band_share(p: np.ndarray, y: np.ndarray, groups: np.ndarray, margin: float) -> float:
    """Share of items whose ramped mean is within :data:`BAND` of the item's gold share of relevant statements."""
    hits = [
        abs(ramp(p[groups == g], margin).mean() - y[groups == g].mean()) <= BAND for g in np.unique(groups)
    ]
    return float(np.mean(hits))


def fmt(s: dict[str, float]) -> str:
    return f"acc={s['accuracy']:.3f} auc={s['auroc']:.3f} brier={s['brier']:.3f} ece={s['ece']:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    models = {}
    bands: dict[float, list[float]] = {m: [] for m in RAMP_GRID}
    for kind in ("statement_relevant", "context_statement_relevant"):
        x, y, groups, p0 = rows(kind)
        best = min(L2_GRID, key=lambda l2: _log_loss(y, _cv(x, y, groups, l2)))
        cv = _cv(x, y, groups, best)
        print(f"{kind}: n={len(y)} first stage {fmt(summary(y, p0))}")
        print(f"{kind}: recalibrated, grouped {FOLDS}-fold CV on blind-dev (l2={best}) {fmt(summary(y, cv))}")
        for m in RAMP_GRID:
            bands[m].append(band_share(cv, y, groups, m))
        print(
            "  item band of the CV probabilities by ramp margin: "
            + ", ".join(f"{m}: {bands[m][-1]:.3f}" for m in RAMP_GRID)
        )
        mean, std, w, b = _fit(x, y, best)
        print("  weights: " + ", ".join(f"{f}={v:+.2f}" for f, v in zip(FEATURES[kind], w, strict=True)))
        models[kind] = {
            "features": list(FEATURES[kind]),
            "mean": mean.tolist(),
            "std": std.tolist(),
            "weights": w.tolist(),
            "bias": b,
            "platt": [1.0, 0.0],
            "l2": best,
            "n_train": len(y),
        }
    # best worst-kind CV band, then best mean; on a tie the widest margin (nearest to counting verdicts)
    margin = max(RAMP_GRID, key=lambda m: (min(bands[m]), np.mean(bands[m]), m))
    print(f"share ramp margin {margin} (best worst-kind CV item band {min(bands[margin]):.3f})")
    if not args.no_write:
        doc = {
            "share_ramp": margin,
            "trained_by": "training/calibrate_blind.py",
            "data": "training/blind/rel/*.blind_dev.jsonl (blind-dev only; blind-test is never fitted)",
            "models": models,
        }
        OUT.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"wrote {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
