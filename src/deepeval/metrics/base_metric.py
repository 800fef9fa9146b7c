"""Metric base classes. The runner knows metrics only through these.

A user metric subclasses :class:`BaseMetric` (single-turn) or :class:`BaseConversationalMetric` (multi-turn) and
implements ``measure``, ``is_successful`` and the ``__name__`` property, and optionally ``a_measure``, as in
deepeval. Neither base class is abstract (deepeval's are not): a metric without ``a_measure`` is measured by its
``measure`` on a worker thread, so a blocking ``measure`` never stalls the event loop; one with only ``a_measure``
gets a ``measure`` that runs it.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from typing import Any, ClassVar

from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import Questions, SystemOneAnswers
from deepeval.test_case import LLMTestCase, SingleTurnParams


@dataclass
class SystemOnePlan:
    """One metric's whole System One request in ``system_one`` mode, so the runner can merge the requests of
    several metrics on the same test case into one (REFERENCE §3). ``state`` is a dict of test-case fields; plans
    on the same test case and model merge by uniting states and prefixing question ids."""

    model: DeepEvalBaseSystemOneModel
    state: dict[str, Any]
    questions: Questions


def _overrides(metric: object, name: str, base: type) -> bool:
    return getattr(type(metric), name, None) is not getattr(base, name)


class BaseMetric:
    """Single-turn metric over an :class:`LLMTestCase`.

    Result attributes after ``measure``: ``score`` (float in [0, 1]), ``reason`` (None when ``include_reason`` is
    False), ``success`` (False when ``error`` is set; None in score-only mode, i.e. ``threshold is None``; else
    ``score >= threshold``: :func:`deepeval.metrics.scoring.success_of`), ``error`` (message or None), ``evaluation_model`` (judge names), ``evaluation_cost``
    (USD, None when unknown), ``input_tokens``, ``output_tokens``, ``verbose_logs``, ``confidence`` (min over System
    One answers used, None when none), ``score_breakdown`` (dict), ``system_one_fallback_reason``.
    """

    _required_params: ClassVar[list[SingleTurnParams]] = []

    threshold: float | None = 0.5
    strict_mode: bool = False
    include_reason: bool = True
    async_mode: bool = True
    verbose_mode: bool = False
    flaky: bool = False
    evaluation_model: str | None = None
    model: Any = None
    system_one_model: Any = None

    score: float | None = None
    reason: str | None = None
    success: bool | None = None
    error: str | None = None
    evaluation_cost: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    verbose_logs: str | None = None
    confidence: float | None = None
    score_breakdown: dict[str, Any] | None = None
    system_one_fallback_reason: str | None = None
    skipped: bool = False
    #: ours: the per-item verdicts (statements, facts) with ``verdict``, ``p_yes``, ``decided_by``, when measured
    verdicts: list[dict[str, Any]] | None = None

    @property
    def __name__(self) -> str:
        cls_name: str = type(self).__qualname__
        return cls_name.removesuffix("Metric") or cls_name

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Evaluate ``test_case`` and return the score. The default runs the subclass's :meth:`a_measure`.

        Raises:
            NotImplementedError: the subclass defines neither ``measure`` nor ``a_measure``.
        """
        if not _overrides(self, "a_measure", BaseMetric):
            raise NotImplementedError(f"{type(self).__name__} must define measure() (or a_measure())")
        from deepeval._concurrency import run_sync

        score: float = run_sync(self.a_measure(test_case, *args, **kwargs))
        return score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Async :meth:`measure`. The default runs the subclass's sync ``measure`` on a worker thread."""
        if not _overrides(self, "measure", BaseMetric):
            raise NotImplementedError(f"{type(self).__name__} must define measure() (or a_measure())")
        score: float = await asyncio.to_thread(self.measure, test_case, *args, **kwargs)
        return score

    def is_successful(self) -> bool | None:
        """Set and return ``success`` by the one rule, :func:`deepeval.metrics.scoring.success_of`: False when
        errored or without a comparable score (score-only mode included: the row of such a measure says False
        too), None in score-only mode (``threshold`` None), else ``score >= threshold`` (an unexpected error raised
        by the comparison itself propagates)."""
        from deepeval.metrics.scoring import success_of

        self.success = success_of(self.score, self.threshold, errored=self.error is not None)
        return self.success

    def cache_config(self) -> dict[str, Any]:
        """Everything about this metric's configuration that changes its result (feeds the cache key)."""
        return {
            "metric": type(self).__qualname__,
            "module": type(self).__module__,
            "threshold": self.threshold,
            "strict_mode": self.strict_mode,
            "include_reason": self.include_reason,
        }

    def fresh_copy(self) -> BaseMetric:
        """A shallow copy with cleared results, sharing judge clients: one per test case in ``evaluate()``."""
        clone = copy.copy(self)
        clone.reset_result()
        return clone

    # -- System One batching hooks (our metrics override these; user metrics need not) --------------------------
    def system_one_plan(self, test_case: Any) -> SystemOnePlan | None:
        """The metric's whole request when it runs in ``system_one`` mode, else None (runner then calls
        ``a_measure``). Raises ``MissingTestCaseParamsError`` like ``measure`` would."""
        return None

    def system_one_finish(self, test_case: Any, answers: SystemOneAnswers, cost: float | None) -> float:
        """Set every result attribute from the answers to :meth:`system_one_plan`'s questions; return the score."""
        raise NotImplementedError(f"{type(self).__name__} does not support batched System One requests")

    def reset_result(self) -> None:
        """Clear every result attribute (called at the start of each measure)."""
        self.score = None
        self.reason = None
        self.success = None
        self.error = None
        self.evaluation_cost = None
        self.input_tokens = None
        self.output_tokens = None
        self.verbose_logs = None
        self.confidence = None
        self.score_breakdown = None
        self.system_one_fallback_reason = None
        self.skipped = False
        self.verdicts = None


class BaseConversationalMetric(BaseMetric):
    """Multi-turn metric over a :class:`ConversationalTestCase` (``measure`` / ``a_measure`` as in
    :class:`BaseMetric`, over a conversation)."""


class BaseArenaMetric:
    """A metric that picks the best of several contestants (``measure(ArenaTestCase) -> winner name``), as
    deepeval 4.3.1's; not a :class:`BaseMetric`: ``evaluate()`` does not run it. Result attributes: ``winner``,
    ``reason``, ``success``, ``error``, ``evaluation_model``, ``evaluation_cost``, ``input_tokens``,
    ``output_tokens``, ``verbose_logs``."""

    winner: str | None = None
    reason: str | None = None
    success: bool | None = None
    error: str | None = None
    evaluation_model: str | None = None
    evaluation_cost: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    verbose_logs: str | None = None
    async_mode: bool = True
    verbose_mode: bool = False
    include_reason: bool = False

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> str:
        raise NotImplementedError

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> str:
        raise NotImplementedError(
            f"Async execution for {type(self).__name__} not supported yet. Please set 'async_mode' to 'False'."
        )

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:
        return "Base Arena Metric"
