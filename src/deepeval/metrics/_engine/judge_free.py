"""The one base of the metrics that compute their score in code and never call a judge for it: the string and schema
checks (ExactMatch, PatternMatch, JsonCorrectness) and the agent checks (ToolCorrectness without ``available_tools``,
ToolPermission, AgentLoopDetection, AgentResponsiveness).

Such a metric needs no LLM or System One configuration for its score, makes no network request for it, and scores
the same in every eval mode and offline (JsonCorrectness may ask an LLM for the *reason* of a failure, through
:meth:`JudgeFreeMetric._explained`; ToolCorrectness asks a judge only for its tool-selection check, in its own
``_run_engine``). It is still measured through the one frame (:class:`~deepeval.metrics.flow.OwnMetric`: reset,
usage, errors as values), so ``measure``, ``a_measure``, ``evaluate``, ``assert_test`` and the CLI treat it like
every other metric.

A subclass implements :meth:`JudgeFreeMetric._compute` (check the test case, raising for an unusable one, and
score it) and may override :meth:`JudgeFreeMetric._explained` when the reason needs a coroutine. It takes the
standard constructor or sets the same attributes in its own (ExactMatch keeps deepeval 4.3.1's three arguments).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deepeval.metrics.flow import OwnMetric
from deepeval.metrics.result import MeasureResult
from deepeval.metrics.scoring import apply_strict, effective_threshold, success_of
from deepeval.models.usage import record_usage


@dataclass
class Computed:
    """One judge-free measure: ``score`` in [0, 1] before strict mode, its ``reason``, the ``steps`` shown in
    ``verbose_logs`` (title, text), the sub-scores kept in ``score_breakdown`` (None when the metric has none), the
    metric's own result ``attributes`` (ExactMatch's ``precision``...), the ``judge_calls`` behind the result
    (recorded in the breakdown when given: the string and schema checks record 0, or 1 when an LLM wrote the
    reason), and what a judge that took part said of itself (``evaluation_model``, ``confidence``,
    ``fallback_reason``: ToolCorrectness' selection check, JsonCorrectness' reason)."""

    score: float
    reason: str
    steps: list[tuple[str, str]] = field(default_factory=list)
    breakdown: dict[str, Any] | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    judge_calls: int | None = None
    evaluation_model: str | None = None
    confidence: float | None = None
    fallback_reason: str | None = None


def checked_threshold(threshold: Any) -> float | None:
    """``threshold`` as a float (None stays None: score-only mode); any finite number, as deepeval accepts.

    Raises:
        ValueError: not a finite number.
    """
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
        raise ValueError(f"threshold must be a finite number or None, got {threshold!r}")
    return float(threshold)


class JudgeFreeMetric(OwnMetric):
    """A metric whose :meth:`_compute` gives the whole result; see the module docstring. Its measure returns the
    value (:class:`~deepeval.metrics.result.MeasureResult`): it writes nothing on the metric; ``measure()`` applies
    the value once. ``evaluation_model`` stays None unless a judge took part."""

    returns_value: ClassVar[bool] = True
    #: the metric's own configuration that changes its result (added to :meth:`cache_config`)
    config_fields: ClassVar[tuple[str, ...]] = ()
    #: the digits of the score in the verbose logs' "Score" step (None: as Python writes the float; deepeval 4.3.1's
    #: ExactMatch and PatternMatch write two)
    score_digits: ClassVar[int | None] = None
    #: record ``evaluation_cost`` 0.0, a known cost of nothing (a judge's cost adds to it); False leaves it unknown
    #: (None) unless a judge reports one, as deepeval 4.3.1's ExactMatch, PatternMatch and JsonCorrectness do
    costs_nothing: ClassVar[bool] = True

    def __init__(
        self,
        threshold: float | None = 0.5,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
    ) -> None:
        self.threshold = effective_threshold(checked_threshold(threshold), strict_mode)
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.flaky = flaky
        self.model = None
        self.system_one_model = None
        self.reset_result()

    def _compute(self, test_case: Any) -> Computed:
        """Check the test case (raise ``MissingTestCaseParamsError`` / ``WrongTestCaseTypeError``) and score it."""
        raise NotImplementedError

    async def _explained(self, test_case: Any, computed: Computed) -> Computed:
        """``computed`` with its final reason (default: as :meth:`_compute` wrote it; JsonCorrectness may ask an
        LLM)."""
        return computed

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        return self.value(await self._explained(test_case, self._compute(test_case)))

    def value(self, computed: Computed) -> MeasureResult:
        """The measure's value from ``computed`` (strict mode applied); prints the verbose logs when asked."""
        score = apply_strict(computed.score, self.strict_mode)
        reason = computed.reason if self.include_reason else None
        if self.costs_nothing:
            record_usage(cost=0.0)
        shown = repr(score) if self.score_digits is None else f"{score:.{self.score_digits}f}"
        steps = [*computed.steps, ("Score", shown), ("Reason", str(reason))]
        logs = "\n\n".join(f"{title}:\n{text}" for title, text in steps)
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{logs}"))
        breakdown = computed.breakdown
        if computed.judge_calls is not None:
            breakdown = {**(breakdown or {}), "judge_calls": computed.judge_calls}
        return MeasureResult(
            score=score,
            reason=reason,
            success=success_of(score, self.threshold),
            breakdown=breakdown,
            confidence=computed.confidence,
            fallback_reason=computed.fallback_reason,
            evaluation_model=computed.evaluation_model,
            verbose_logs=logs,
            attributes=dict(computed.attributes),
        )

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        for name in self.config_fields:
            cfg[name] = _plain(getattr(self, name))
        return cfg


def _plain(value: Any) -> Any:
    """A JSON-friendly, order-stable form of a configuration value (sets sorted, enums by value, models dumped)."""
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    enum_value = getattr(value, "value", None)
    if enum_value is not None and type(value).__module__.startswith("deepeval"):
        return enum_value
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    return value
