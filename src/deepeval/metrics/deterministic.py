"""The base of the metrics that need no judge to score (ExactMatch, PatternMatch, JsonCorrectness).

Such a metric scores in code, so it never resolves, builds or calls a judge for its score, in any eval mode and with
nothing configured (JsonCorrectness may ask an LLM for the *reason* of a failure only). It still measures through
the one frame (:class:`~deepeval.metrics.flow.OwnMetric`: reset, usage, errors as values), so ``measure``,
``a_measure``, ``evaluate``, ``assert_test`` and the CLI treat it like every other metric.

A subclass implements :meth:`DeterministicMetric._check` (raise for an unusable test case) and
:meth:`DeterministicMetric._judge` (the score, the reason, the verbose steps and the breakdown), and may override
:meth:`DeterministicMetric._explained` when the reason needs a coroutine (an LLM call).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deepeval.metrics.flow import OwnMetric
from deepeval.metrics.result import MeasureResult
from deepeval.metrics.scoring import apply_strict, success_of


@dataclass
class Judged:
    """What a deterministic metric found: ``score`` in [0, 1], its ``reason`` and ``steps`` for the verbose logs
    (``(title, text)``), the ``breakdown`` kept in ``score_breakdown``, the metric's own result ``attributes``
    (ExactMatch's ``precision``...) and ``judge_calls`` (0 for the score; JsonCorrectness counts its reason call,
    and names the judge in ``evaluation_model``)."""

    score: float
    reason: str
    steps: list[tuple[str, str]] = field(default_factory=list)
    breakdown: dict[str, Any] = field(default_factory=dict)
    attributes: dict[str, Any] = field(default_factory=dict)
    judge_calls: int = 0
    evaluation_model: str | None = None


def check_threshold(threshold: Any) -> float | None:
    """``threshold`` as a float (any finite number, as deepeval accepts), or None (score-only mode).

    Raises:
        ValueError: not a finite number.
    """
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number or None, got {threshold!r}")
    return float(threshold)


class DeterministicMetric(OwnMetric):
    """A metric scored in code (see the module docstring). Its measure returns the value (``returns_value``): it
    writes nothing on the metric; ``measure()`` applies the value once. ``evaluation_model`` stays None: no judge
    scored it."""

    returns_value: ClassVar[bool] = True

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        self._check(test_case)
        judged = await self._explained(test_case, self._judge(test_case))
        score = apply_strict(judged.score, self.strict_mode)
        reason = judged.reason if self.include_reason else None
        steps = [*judged.steps, ("Score", f"{score:.2f}"), ("Reason", str(reason))]
        logs = "\n\n".join(f"{title}:\n{text}" for title, text in steps)
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{logs}"))
        return MeasureResult(
            score=score,
            reason=reason,
            success=success_of(score, self.threshold),
            breakdown={**judged.breakdown, "judge_calls": judged.judge_calls},
            evaluation_model=judged.evaluation_model,
            verbose_logs=logs,
            attributes=dict(judged.attributes),
        )

    def _check(self, test_case: Any) -> None:
        raise NotImplementedError

    def _judge(self, test_case: Any) -> Judged:
        raise NotImplementedError

    async def _explained(self, test_case: Any, judged: Judged) -> Judged:
        """``judged`` with its final reason (default: as :meth:`_judge` wrote it; JsonCorrectness may ask an LLM)."""
        return judged
