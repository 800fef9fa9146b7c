"""Binary-probability evaluation metrics: accuracy, AUROC, Brier score, expected calibration error, reliability
bins. The one implementation: ``deepeval judge-eval`` and the training scripts (``training/evalmetrics.py``
re-exports it) use these."""

from __future__ import annotations

import numpy as np


def accuracy(y: np.ndarray, p: np.ndarray, threshold: float = 0.5) -> float:
    """Share of items where ``p >= threshold`` equals the label."""
    return float(np.mean((p >= threshold) == (y == 1)))


def auroc(y: np.ndarray, p: np.ndarray) -> float:
    """Area under the ROC curve via the Mann-Whitney U statistic (ties count one half); NaN with one class."""
    pos, neg = p[y == 1], p[y == 0]
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    values = np.concatenate([pos, neg])[order]
    ranks = np.empty(len(values))
    i = 0
    while i < len(values):  # average ranks over ties
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[i : j + 1] = (i + j) / 2.0 + 1.0
        i = j + 1
    full = np.empty(len(values))
    full[order] = ranks
    r_pos = full[: len(pos)].sum()
    return float((r_pos - len(pos) * (len(pos) + 1) / 2.0) / (len(pos) * len(neg)))


def brier(y: np.ndarray, p: np.ndarray) -> float:
    """Mean squared error of the probabilities against 0/1 labels."""
    return float(np.mean((p - y) ** 2))


def ece(y: np.ndarray, p: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error with ``bins`` equal-width bins on [0, 1] (Naeini et al., 2015):
    ``sum_b |B_b|/n * |mean(y in b) - mean(p in b)|``."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    idx = np.clip(np.digitize(p, edges[1:-1], right=False), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        mask = idx == b
        if mask.any():
            total += mask.mean() * abs(float(y[mask].mean()) - float(p[mask].mean()))
    return float(total)


def reliability(y: np.ndarray, p: np.ndarray, bins: int = 10) -> list[dict[str, float]]:
    """The bins of :func:`ece`: ``[{"lo", "hi", "n", "mean_p", "frequency"}]`` for every non-empty bin."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    idx = np.clip(np.digitize(p, edges[1:-1], right=False), 0, bins - 1)
    out: list[dict[str, float]] = []
    for b in range(bins):
        mask = idx == b
        if mask.any():
            out.append(
                {
                    "lo": float(edges[b]),
                    "hi": float(edges[b + 1]),
                    "n": int(mask.sum()),
                    "mean_p": float(p[mask].mean()),
                    "frequency": float(y[mask].mean()),
                }
            )
    return out


def summary(y: np.ndarray, p: np.ndarray) -> dict[str, float]:
    """``{"n", "accuracy", "auroc", "brier", "ece"}``."""
    return {
        "n": len(y),
        "accuracy": accuracy(y, p),
        "auroc": auroc(y, p),
        "brier": brier(y, p),
        "ece": ece(y, p),
    }
