"""Scoring rules shared by the metrics (REFERENCE §2).

* ``strict_mode``: the threshold becomes 1 and any score below 1 becomes 0.
* ``success``: ``None`` when the threshold is ``None`` (score-only mode); ``False`` when the metric errored; else
  ``score >= threshold`` (a minimum, for all three metrics).
"""

from __future__ import annotations


def effective_threshold(threshold: float | None, strict_mode: bool) -> float | None:
    """1.0 in strict mode, else ``threshold`` (None stays None only outside strict mode)."""
    return 1.0 if strict_mode else threshold


def apply_strict(score: float, strict_mode: bool) -> float:
    """In strict mode any score below 1 is 0; scores are also clipped to [0, 1]."""
    score = min(1.0, max(0.0, score))
    if strict_mode and score < 1.0:
        return 0.0
    return score


def success_of(score: float | None, threshold: float | None, *, errored: bool = False) -> bool | None:
    """See module docstring."""
    if errored or score is None:
        return False
    if threshold is None:
        return None
    return score >= threshold


def ratio(numerator: int, denominator: int, *, empty: float) -> float:
    """``numerator / denominator``, or ``empty`` when there is nothing to count."""
    return empty if denominator == 0 else numerator / denominator
