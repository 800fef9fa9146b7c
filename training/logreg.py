"""L2-regularised logistic regression (Newton / IRLS) and Platt scaling with numpy only."""

from __future__ import annotations

import numpy as np


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> tuple[np.ndarray, float]:
    """Weights and bias minimising log-loss + ``l2/2 * |w|^2`` (the bias is not penalised)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0
    for _ in range(iters):
        z = np.clip(xb @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = xb.T @ (p - y) + reg * w
        h = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(h, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w[:-1], float(w[-1])


def fit_platt(scores: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Platt scaling ``sigmoid(a * s + c)`` fitted with Platt's smoothed targets (Platt, 1999)."""
    n_pos, n_neg = float((y == 1).sum()), float((y == 0).sum())
    t = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    w, b = fit_logistic(scores.reshape(-1, 1), t, l2=1e-6)
    return float(w[0]), b


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))
