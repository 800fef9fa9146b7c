"""Metric base classes. The runner knows metrics only through these.

A user metric subclasses :class:`BaseMetric` (single-turn) or :class:`BaseConversationalMetric` (multi-turn) and
implements ``measure``, ``a_measure``, ``is_successful`` and the ``__name__`` property, as in deepeval.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from deepeval.models.base_model import DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import Questions, SystemOneAnswers
from deepeval.test_case import ConversationalTestCase, LLMTestCase, LLMTestCaseParams


@dataclass
class SystemOnePlan:
    """One metric's whole System One request in ``system_one`` mode, so the runner can merge the requests of
    several metrics on the same test case into one (REFERENCE §3). ``state`` is a dict of test-case fields; plans
    on the same test case and model merge by uniting states and prefixing question ids."""

    model: DeepEvalBaseSystemOneModel
    state: dict[str, Any]
    questions: Questions


class BaseMetric(ABC):
    """Single-turn metric over an :class:`LLMTestCase`.

    Result attributes after ``measure``: ``score`` (float in [0, 1]), ``reason`` (None when ``include_reason`` is
    False), ``success`` (None in score-only mode, i.e. ``threshold is None``; False when ``error`` is set; else
    ``score >= threshold``), ``error`` (message or None), ``evaluation_model`` (judge names), ``evaluation_cost``
    (USD, None when unknown), ``input_tokens``, ``output_tokens``, ``verbose_logs``, ``confidence`` (min over System
    One answers used, None when none), ``score_breakdown`` (dict), ``system_one_fallback_reason``.
    """

    _required_params: ClassVar[list[LLMTestCaseParams]] = []

    threshold: float | None = 0.5
    strict_mode: bool = False
    include_reason: bool = True
    async_mode: bool = True
    verbose_mode: bool = False
    flaky: bool = False
    evaluation_model: str | None = None

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
    def __name__(self) -> str:  # type: ignore[override]
        cls_name: str = type(self).__qualname__
        return cls_name.removesuffix("Metric") or cls_name

    @abstractmethod
    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Evaluate ``test_case`` and return the score."""

    @abstractmethod
    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Async :meth:`measure`."""

    def is_successful(self) -> bool:
        """``False`` when errored; True in score-only mode; else ``score >= threshold``."""
        if self.error is not None or self.score is None:
            self.success = False
            return False
        if self.threshold is None:
            return True
        self.success = self.score >= self.threshold
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
    """Multi-turn metric over a :class:`ConversationalTestCase`."""

    @abstractmethod
    def measure(self, test_case: ConversationalTestCase, *args: Any, **kwargs: Any) -> float:  # type: ignore[override]
        """Evaluate the conversation and return the score."""

    @abstractmethod
    async def a_measure(self, test_case: ConversationalTestCase, *args: Any, **kwargs: Any) -> float:  # type: ignore[override]
        """Async :meth:`measure`."""
