"""Scoring rules shared by the metrics (REFERENCE §2).

* ``strict_mode``: the threshold becomes 1 and any score below 1 becomes 0.
* ``success`` (:func:`success_of`, the one rule: a metric's ``success`` and ``is_successful()``, its result row,
  a repeat aggregate, the memory metrics): ``False`` when the metric errored or has no score; ``None`` when the
  threshold is ``None`` (score-only mode); else ``score >= threshold`` (a minimum, for every metric).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any


def effective_threshold(threshold: float | None, strict_mode: bool) -> float | None:
    """1.0 in strict mode, else ``threshold`` (None stays None only outside strict mode)."""
    return 1.0 if strict_mode else threshold


def apply_strict(score: float, strict_mode: bool) -> float:
    """In strict mode any score below 1 is 0; scores are also clipped to [0, 1]."""
    score = min(1.0, max(0.0, score))
    if strict_mode and score < 1.0:
        return 0.0
    return score


def success_of(score: Any, threshold: Any, *, errored: bool = False) -> bool | None:
    """See module docstring. A score and threshold that do not compare (a ``TypeError``, as a user metric's score of
    another type raises) is no success, as in deepeval; any other error of the comparison propagates."""
    if errored or score is None:
        return False
    if threshold is None:
        return None
    try:
        return bool(score >= threshold)
    except TypeError:
        return False


def ratio(numerator: int, denominator: int, *, empty: float) -> float:
    """``numerator / denominator``, or ``empty`` when there is nothing to count."""
    return empty if denominator == 0 else numerator / denominator


_DIRECTION_NOTED: set[str] = set()


def note_score_direction(metric_name: str, stacklevel: int = 3) -> None:
    """Warn once per process (``DeprecationWarning``, as deepeval 4.3.1 does when one of these metrics is built)
    that ``metric_name`` scores the share of non-violations: 1 passes, 0 fails, ``threshold`` is a minimum. Earlier
    deepeval releases scored the share of violations with a maximum threshold, so an old threshold of 0.2 reads 0.8
    now. Used by the metrics whose direction changed (Bias, Toxicity, Misuse). ``stacklevel``: as
    :func:`warnings.warn`'s, counted from this function (3: the caller of the ``__init__`` that calls it)."""
    if metric_name in _DIRECTION_NOTED:
        return
    _DIRECTION_NOTED.add(metric_name)
    import warnings

    warnings.warn(
        f"{metric_name} scores the share of output that is free of the problem: 1 passes, 0 fails, and threshold "
        "is the minimum passing score (as every deepeval metric). Releases before deepeval 4.3 scored the share of "
        "violations with threshold as a maximum: a threshold of 0.2 written for them ('at most 20% violations') "
        "is 0.8 now.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def mean_of(values: Sequence[float]) -> float:
    """The arithmetic mean of scores, never an exception: scores a custom metric may return near the float limit
    (1e308 twice) overflow ``statistics.fmean``'s sum, so they are averaged term by term; ``inf`` with ``-inf``
    gives ``nan``. Raises ``ValueError`` only for no values, as ``fmean`` does."""
    if not values:
        raise ValueError("mean_of needs at least one value")
    try:
        return statistics.fmean(values)
    except OverflowError:
        return math.fsum(v / len(values) for v in values)
    except ValueError:  # inf + -inf
        return math.nan
