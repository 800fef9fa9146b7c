"""Recall and precision summaries with seeded bootstrap 95% intervals.

For grades s_i in 1..5 over n probed facts: weighted recall = mean(s/5) (seed 003), strict recall = share of
s == 5, normalised recall = mean((s-1)/4) (0 for an empty memory, 1 for a perfect one). Precision over m wiki claims
verified against the transcript: precision = mean(s/5), hallucination rate = share of s == 1. Intervals are
percentile bootstrap intervals (``n_boot`` resamples, numpy ``default_rng(seed)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def bootstrap_ci(values: Sequence[float], seed: int = 0, n_boot: int = 2000, level: float = 0.95) -> Interval:
    """Percentile bootstrap interval of the mean of ``values``; a single value gives a zero-width interval.

    Raises:
        ValueError: no values, or ``level`` outside (0, 1).
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        raise ValueError("bootstrap_ci needs at least one value")
    if arr.size == 1 or np.all(arr == arr[0]):
        return Interval(float(arr[0]), float(arr[0]))
    rng = np.random.default_rng(seed)
    means = arr[rng.integers(0, arr.size, size=(n_boot, arr.size))].mean(axis=1)
    alpha = (1 - level) / 2
    return Interval(float(np.quantile(means, alpha)), float(np.quantile(means, 1 - alpha)))


@dataclass(frozen=True)
class RecallSummary:
    """Recall over ``n`` graded facts; each value in [0, 1] with its 95% bootstrap interval. Values are None
    when ``n == 0``."""

    n: int
    weighted: float | None
    strict: float | None
    normalised: float | None
    weighted_ci: Interval | None
    strict_ci: Interval | None
    normalised_ci: Interval | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def recall_summary(grades: Sequence[int], seed: int = 0, n_boot: int = 2000) -> RecallSummary:
    """Summarise 1-5 grades. Raises ValueError for a grade outside 1..5."""
    g = [int(x) for x in grades]
    if any(not 1 <= x <= 5 for x in g):
        raise ValueError(f"grades must be integers 1..5, got {sorted(set(g))}")
    if not g:
        return RecallSummary(0, None, None, None, None, None, None)
    w = [x / 5 for x in g]
    s = [1.0 if x == 5 else 0.0 for x in g]
    n = [(x - 1) / 4 for x in g]
    return RecallSummary(
        len(g), float(np.mean(w)), float(np.mean(s)), float(np.mean(n)),
        bootstrap_ci(w, seed, n_boot), bootstrap_ci(s, seed, n_boot), bootstrap_ci(n, seed, n_boot),
    )  # fmt: skip


@dataclass(frozen=True)
class PrecisionSummary:
    """Precision over ``n_claims`` claims (None when there are none), the hallucination rate (share of 1s:
    unsupported or contradicted) and ``n_weakly_supported``, the claims scored 2 (a few of their words are in the
    transcript but not the claim: counted on their own, not as hallucinations)."""

    n_claims: int
    precision: float | None
    hallucination_rate: float | None
    n_hallucinations: int
    precision_ci: Interval | None
    n_weakly_supported: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def precision_summary(grades: Sequence[int], seed: int = 0, n_boot: int = 2000) -> PrecisionSummary:
    g = [int(x) for x in grades]
    if any(not 1 <= x <= 5 for x in g):
        raise ValueError(f"grades must be integers 1..5, got {sorted(set(g))}")
    if not g:
        return PrecisionSummary(0, None, None, 0, None)
    w = [x / 5 for x in g]
    h = sum(1 for x in g if x == 1)
    weak = sum(1 for x in g if x == 2)
    return PrecisionSummary(len(g), float(np.mean(w)), h / len(g), h, bootstrap_ci(w, seed, n_boot), weak)
