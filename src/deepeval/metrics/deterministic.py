"""The earlier name of the judge-free base: :class:`DeterministicMetric` *is*
:class:`~deepeval.metrics._engine.judge_free.JudgeFreeMetric` (one class, one rule), ``Judged`` is its
:class:`~deepeval.metrics._engine.judge_free.Computed` and ``check_threshold`` its ``checked_threshold``. Kept so
that code importing ``deepeval.metrics.deterministic`` goes on working (deepeval 4.3.1 has neither module)."""

from __future__ import annotations

from deepeval.metrics._engine.judge_free import Computed as Judged
from deepeval.metrics._engine.judge_free import JudgeFreeMetric as DeterministicMetric
from deepeval.metrics._engine.judge_free import checked_threshold as check_threshold

__all__ = ["DeterministicMetric", "Judged", "check_threshold"]
