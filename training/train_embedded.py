"""Fit the embedded judge's per-kind calibrated models and write the shipped coefficient file.

Usage (from the repo root, venv active)::

    python training/train_embedded.py            # fit, evaluate on the held-out split, write coefficients
    python training/train_embedded.py --no-write # evaluate only (writes neither coefficients nor report)
    python training/train_embedded.py --kinds turn_forgets,turn_attrition  # refit only these kinds

Reproducible: fixed seeds and splits (training/datasets.py), deterministic features, Newton-fitted logistic
regression (training/logreg.py). Embeddings are cached in ``training/.cache/embeddings.npz`` (git-ignored), so a
second run takes seconds. Writes ``src/deepeval/models/embedded/data/embedded_judge.json`` and
``training/report.json`` (held-out metrics: raw-cosine baseline vs ours).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from deepeval.models.embedded import encoder, lexical  # noqa: E402
from deepeval.models.embedded import features as ft  # noqa: E402
from training import datasets  # noqa: E402
from training.evalmetrics import summary  # noqa: E402
from training.logreg import fit_logistic, fit_platt, sigmoid  # noqa: E402

CACHE = REPO / "training" / ".cache" / "embeddings.npz"
OUT = REPO / "src" / "deepeval" / "models" / "embedded" / "data" / "embedded_judge.json"
REPORT = REPO / "training" / "report.json"
VERSION = "deepeval-local-1/2"

#: model id -> (feature function over an Example, raw-cosine baseline feature)
FEATURES: dict[str, tuple[Callable[[datasets.Example], dict[str, float]], str]] = {
    "statement_relevant": (lambda e: ft.relevance_features(e.a, e.b), "cos"),
    "context_statement_relevant": (lambda e: ft.context_statement_features(e.a, e.b, e.extra), "cos"),
    "context_node_relevant": (lambda e: ft.node_features(e.a, e.b), "cos_max"),
    "claim_supported": (lambda e: ft.support_features(e.a, e.b), "cos_best"),
    "turn_forgets": (lambda e: ft.retention_features(json.loads(e.a), e.b, e.extra), "max_sim"),
    "turn_reasks": (lambda e: ft.retention_features(json.loads(e.a), e.b, e.extra), "max_sim"),
    "turn_attrition": (lambda e: ft.retention_features(json.loads(e.a), e.b, e.extra), "max_sim"),
}
L2_GRID = (0.03, 0.3, 1.0, 3.0, 10.0)
FOLDS = 5


def _folds(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permutation(n) % FOLDS


def _standardize(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    return mean, np.where(std > 1e-9, std, 1.0)


def _oof_logits(x: np.ndarray, y: np.ndarray, l2: float, folds: np.ndarray) -> np.ndarray:
    out = np.zeros(len(y))
    for k in range(FOLDS):
        tr, va = folds != k, folds == k
        if len(set(y[tr])) < 2:
            continue
        mean, std = _standardize(x[tr])
        w, b = fit_logistic((x[tr] - mean) / std, y[tr], l2=l2)
        out[va] = ((x[va] - mean) / std) @ w + b
    return out


def _log_loss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_kind(x: np.ndarray, y: np.ndarray, seed: int) -> tuple[dict, float]:
    """Choose L2 by out-of-fold log-loss, fit on all training rows, Platt-scale on out-of-fold logits."""
    folds = _folds(len(y), seed)
    best = min(L2_GRID, key=lambda l2: _log_loss(y, sigmoid(_oof_logits(x, y, l2, folds))))
    oof = _oof_logits(x, y, best, folds)
    a, c = fit_platt(oof, y)
    mean, std = _standardize(x)
    w, b = fit_logistic((x - mean) / std, y, l2=best)
    return {
        "mean": mean.tolist(),
        "std": std.tolist(),
        "weights": w.tolist(),
        "bias": b,
        "platt": [a, c],
        "l2": best,
    }, best


def predict(model: dict, x: np.ndarray) -> np.ndarray:
    z = ((x - np.array(model["mean"])) / np.array(model["std"])) @ np.array(model["weights"]) + model["bias"]
    p = sigmoid(model["platt"][0] * z + model["platt"][1])
    return np.clip(p, 0.005, 0.995)


def prewarm(examples: list[datasets.Example]) -> None:
    """Encode every text the features will need in large batches (much faster than one at a time)."""
    from deepeval.models.embedded.text import split_sentences

    want: dict[str, set[str]] = {"query": set(), "passage": set()}
    for e in examples:
        if e.kind in ("statement_relevant", "context_statement_relevant", "context_node_relevant"):
            want["query"].add(e.a)
            want["passage"].update({e.a, e.b})
            want["passage"].update(split_sentences(e.b))
        if e.kind == "context_statement_relevant" and e.extra:
            want["passage"].update(split_sentences(e.extra))
        elif e.kind.startswith("claim_supported"):
            want["passage"].update({e.a, *split_sentences(e.b)})
    for kind, texts in want.items():
        ordered = sorted(texts)
        for i in range(0, len(ordered), 128):
            encoder.embed(ordered[i : i + 128], kind)  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-write", action="store_true", help="do not overwrite the shipped coefficients")
    ap.add_argument(
        "--kinds",
        default="",
        help="comma-separated question kinds to refit (default: all); the others keep their shipped models and report",
    )
    ap.add_argument(
        "--evaluate-shipped",
        action="store_true",
        help="refit nothing: score the shipped coefficients with the current feature code on the held-out split and "
        "rewrite training/report.json (after a feature-code change that kept the coefficients)",
    )
    args = ap.parse_args()
    only = {k for k in args.kinds.split(",") if k}
    unknown = only - set(FEATURES)
    if unknown:
        ap.error(f"unknown kinds {sorted(unknown)}; known: {sorted(FEATURES)}")
    t0 = time.time()
    encoder.set_cache_size(200_000)
    if CACHE.exists():
        encoder.load_cache(str(CACHE))
    examples = (
        datasets.clapnq_examples()
        + datasets.chat_relevance_examples()
        + datasets.nonanswer_relevance_examples()
        + datasets.fragment_relevance_examples()
        + datasets.retention_examples()
    )
    idf_table = lexical.build_idf(datasets.idf_documents())  # training split only; shipped with the models
    lexical.set_idf(idf_table)
    prewarm(examples)
    print(f"embeddings ready in {time.time() - t0:.1f} s", flush=True)
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    encoder.save_cache(str(CACHE))
    models: dict[str, dict] = {}
    report: dict[str, dict] = {}
    shipped = json.loads(OUT.read_text())["models"]
    if (
        only or args.evaluate_shipped
    ):  # keep the other kinds as shipped (parallel refits must not undo each other)
        models = shipped
        report = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    for kind, (featurize, base_name) in FEATURES.items():
        if only and kind not in only:
            continue
        rows = [e for e in examples if e.kind == kind]
        feats = [featurize(e) for e in rows]
        names = sorted(feats[0])
        x = np.array([[f[n] for n in names] for f in feats], dtype=float)
        y = np.array([e.label for e in rows], dtype=float)
        is_test = np.array([e.split == "test" for e in rows])
        if args.evaluate_shipped:
            model, l2 = shipped[kind], shipped[kind]["l2"]
            if model["features"] != names:
                raise SystemExit(
                    f"{kind}: shipped features {model['features']} differ from the code's {names}; refit"
                )
        else:
            model, l2 = fit_kind(x[~is_test], y[~is_test], seed=datasets.SEED)
            model = {"features": names, **model, "n_train": int((~is_test).sum())}
        models[kind] = model
        bi = names.index(base_name)
        base_model, _ = fit_kind(x[~is_test][:, [bi]], y[~is_test], seed=datasets.SEED)
        p_ours = predict(model, x[is_test])
        p_base = predict(base_model, x[is_test][:, [bi]])
        report[kind] = {
            "baseline_raw_cosine": summary(y[is_test], p_base),
            "ours": summary(y[is_test], p_ours),
            "l2": l2,
            "weights": dict(zip(names, np.round(model["weights"], 3).tolist(), strict=True)),
        }
        for tag in ("chat", "nonanswer", "fragment"):
            sub = is_test & np.array([e.tag == tag for e in rows])
            if sub.any():
                report[kind][f"ours_{tag}_subset"] = summary(y[sub], predict(model, x[sub]))
                print(
                    f"  {tag} subset n_test={int(sub.sum())} auc={report[kind][f'ours_{tag}_subset']['auroc']:.3f}"
                )
        # the held-out set as it was before the non-answer rows were added (comparable across versions)
        if any(e.tag == "nonanswer" for e in rows):
            old = is_test & np.array([e.tag not in ("nonanswer", "fragment") for e in rows])
            report[kind]["ours_without_nonanswer_rows"] = summary(y[old], predict(model, x[old]))
            print(
                f"  without non-answer rows n_test={int(old.sum())}"
                f" acc={report[kind]['ours_without_nonanswer_rows']['accuracy']:.3f}"
                f" auc={report[kind]['ours_without_nonanswer_rows']['auroc']:.3f}"
            )
        print(
            f"{kind:24s} n_test={int(is_test.sum()):4d}  base acc={report[kind]['baseline_raw_cosine']['accuracy']:.3f}"
            f" auc={report[kind]['baseline_raw_cosine']['auroc']:.3f} | ours acc={report[kind]['ours']['accuracy']:.3f}"
            f" auc={report[kind]['ours']['auroc']:.3f} brier={report[kind]['ours']['brier']:.3f}"
            f" ece={report[kind]['ours']['ece']:.3f}  (l2={l2})",
            flush=True,
        )
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    encoder.save_cache(str(CACHE))
    if only:  # others may have refit their kinds meanwhile: merge ours into the files as they are now
        models = {**json.loads(OUT.read_text())["models"], **{k: models[k] for k in only}}
        report = {
            **(json.loads(REPORT.read_text()) if REPORT.exists() else {}),
            **{k: report[k] for k in only},
        }
    doc = {
        "version": VERSION,
        "trained_by": "training/train_embedded.py",
        "seed": datasets.SEED,
        "data": "ClapNQ dev (Apache-2.0), training/data/relevance_chat.jsonl, relevance_nonanswer.jsonl, relevance_fragments.jsonl and retention.jsonl (ours)",
        "models": models,
        "idf": idf_table,
    }
    if REPORT.exists():  # the blind section is written by training/blind_eval.py; a refit keeps it
        report.setdefault("blind", json.loads(REPORT.read_text()).get("blind", {}))
    if args.evaluate_shipped:
        REPORT.write_text(json.dumps(report, indent=1) + "\n")
        print(f"wrote {REPORT.relative_to(REPO)} (shipped coefficients unchanged)")
    elif not args.no_write:
        REPORT.write_text(json.dumps(report, indent=1) + "\n")
        OUT.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"wrote {OUT.relative_to(REPO)}")
    print(f"done in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
