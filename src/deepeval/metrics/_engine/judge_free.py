"""Base of the metrics that compute their score in code and never call a judge (tool correctness without
``available_tools``, tool permission, agent loop detection, agent responsiveness).

Such a metric needs no LLM or System One configuration, makes no network request, and has no eval mode: it scores
the same in every mode and offline. It is still measured through :func:`deepeval.metrics.flow.run_measure`, so
``measure``, ``a_measure``, ``evaluate``, ``assert_test`` and the CLI treat it as any of our metrics.
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
    """One judge-free measure: the score before strict mode, the reason, the steps shown in ``verbose_logs``
    (title, text) and the sub-scores (``score_breakdown``, None when the metric has none)."""

    score: float
    reason: str
    steps: list[tuple[str, str]] = field(default_factory=list)
    breakdown: dict[str, Any] | None = None


def checked_threshold(threshold: Any) -> float | None:
    """``threshold`` as a float (None stays None); any finite number, as deepeval accepts.

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
    value (:class:`~deepeval.metrics.result.MeasureResult`), which ``measure()`` applies."""

    returns_value = True
    #: the metric's own configuration that changes its result (added to :meth:`cache_config`)
    config_fields: ClassVar[tuple[str, ...]] = ()

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

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        return self.value(self._compute(test_case))

    def value(
        self,
        computed: Computed,
        *,
        confidence: float | None = None,
        fallback_reason: str | None = None,
        evaluation_model: str | None = None,
    ) -> MeasureResult:
        """The measure's value from ``computed`` (strict mode applied); prints the verbose logs when asked."""
        score = apply_strict(computed.score, self.strict_mode)
        reason = computed.reason if self.include_reason else None
        record_usage(
            cost=0.0
        )  # a known cost of nothing (None would read "unknown"); a judge's cost adds to it
        steps = [*computed.steps, ("Score", repr(score)), ("Reason", str(reason))]
        logs = "\n\n".join(f"{title}:\n{text}" for title, text in steps)
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{logs}"))
        return MeasureResult(
            score=score,
            reason=reason,
            success=success_of(score, self.threshold),
            breakdown=computed.breakdown,
            confidence=confidence,
            fallback_reason=fallback_reason,
            evaluation_model=evaluation_model,
            verbose_logs=logs,
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
