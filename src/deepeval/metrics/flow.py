"""One measure, as a value: :func:`run_measure` runs a metric on a test case and returns its
:class:`~deepeval.metrics.result.MeasureResult` (score, reason, verdicts, usage, or the error with its kind); it never
raises for the measure's failure (cancellation, ``KeyboardInterrupt`` and ``SystemExit`` pass through).

Every measure goes through it: ``evaluate()``'s runner (the local one, the Ray blocks and component-level
evaluation run the same runner) for every metric, a user's included, and ``measure()``/``a_measure()`` of our own
metrics (:class:`OwnMetric`: the engine's three metrics and the memory metrics), which :func:`apply` the value: set
the result attributes and re-raise the original exception when it has an error (deepeval raises from ``measure``;
``score``, ``success`` and ``error`` are then None, as deepeval 4.3.1 leaves a metric whose ``measure()`` raised).

An error is classified once, by :func:`error_of` on :func:`deepeval.errors.error_kind` (the one mapping), and
redacted there.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any, ClassVar

from deepeval._concurrency import bounded, run_sync, to_daemon_thread
from deepeval.config import redact
from deepeval.errors import JudgeError, MissingTestCaseParamsError, error_kind
from deepeval.metrics.base_metric import BaseMetric
from deepeval.metrics.result import MeasureError, MeasureResult, Usage
from deepeval.metrics.scoring import success_of
from deepeval.models.usage import UsageTracker, known_cost, track_usage

__all__ = ["OwnMetric", "apply", "as_float", "error_of", "failure_of", "result_of", "run_measure"]


class OwnMetric(BaseMetric):
    """Base of this package's metrics: ``measure``/``a_measure`` are :func:`run_measure` + :func:`apply`; a
    subclass implements ``_run_engine``, which returns the measure's :class:`MeasureResult` (``returns_value``
    True: our engine, which writes nothing on the metric along the way) or sets the result attributes of one
    measure (the memory metrics), or raises."""

    #: ``_run_engine`` returns the value (True) or sets the result attributes (False)
    returns_value: ClassVar[bool] = False

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult | None:
        raise NotImplementedError

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        """Evaluate ``test_case``; returns the score in [0, 1] and sets the result attributes (with
        ``async_mode=False`` the judges are called one after another). A subclass's own ``a_measure`` is what an
        ``async_mode`` measure runs, as before the value existed."""
        if type(self).a_measure is not OwnMetric.a_measure and self.async_mode:
            return run_sync(self.a_measure(test_case, *args, **kwargs))
        return apply(
            self, run_sync(_measured(self, self._engine_call(test_case, sequential=not self.async_mode)))
        )

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        """Async :meth:`measure`."""
        return apply(self, await _measured(self, self._engine_call(test_case, sequential=False)))

    def _engine_call(
        self, test_case: Any, *, sequential: bool
    ) -> Callable[[], Coroutine[Any, Any, MeasureResult | None]]:
        return lambda: self._run_engine(test_case, sequential=sequential)


def _engine(metric: BaseMetric) -> OwnMetric | None:
    """``metric`` when its measure is our engine (an :class:`OwnMetric` whose ``measure``/``a_measure`` no
    subclass replaced), else None: the metric is measured through its own methods, as a user's."""
    cls = type(metric)
    if (
        isinstance(metric, OwnMetric)
        and cls.measure is OwnMetric.measure
        and cls.a_measure is OwnMetric.a_measure
    ):
        return metric
    return None


async def run_measure(
    metric: BaseMetric,
    test_case: Any,
    *,
    run_async: bool = True,
    timeout: float | None = None,
    skip_on_missing_params: bool = False,
    evaluating: bool = False,
) -> MeasureResult:
    """Measure ``test_case`` with ``metric`` and return the value (see the module docstring).

    ``run_async``: the ``a_measure`` path (our engine calls independent judges concurrently); False is the
    ``measure`` path (a user metric's ``measure``; our engine sequential when the metric's ``async_mode`` is
    False). ``timeout``: seconds before the measure is abandoned (an error of kind ``deadline``).
    ``skip_on_missing_params``: a missing test-case field skips the measure instead of erroring it.
    ``evaluating``: as ``evaluate()`` measures: the ``measure`` path runs on a daemon thread (a measure blocked
    past its deadline is abandoned, never joined), and every ``TimeoutError`` reads as the deadline
    (``TimeoutError: measure did not finish within <timeout> s``).
    """
    own = _engine(metric)
    call: Callable[[], Awaitable[Any]]
    if own is not None:
        sequential = not run_async and not own.async_mode
        engine = own._engine_call(test_case, sequential=sequential)
        if run_async or not evaluating:
            call = engine
        else:
            call = lambda: to_daemon_thread(lambda: run_sync(engine()))  # noqa: E731
    elif run_async:
        call = lambda: metric.a_measure(test_case)  # noqa: E731
    elif evaluating:
        call = lambda: to_daemon_thread(metric.measure, test_case)  # noqa: E731
    else:
        call = lambda: _now(metric.measure, test_case)  # noqa: E731
    return await _measured(
        metric,
        call,
        own=own is not None,
        timeout=timeout,
        skip_on_missing_params=skip_on_missing_params,
        deadline_text=evaluating or timeout is not None,
    )


async def _now(fn: Callable[[Any], Any], test_case: Any) -> Any:
    return fn(test_case)


async def _measured(
    metric: BaseMetric,
    call: Callable[[], Awaitable[Any]],
    *,
    own: bool = True,
    timeout: float | None = None,
    skip_on_missing_params: bool = False,
    deadline_text: bool = False,
) -> MeasureResult:
    """Run ``call`` under a usage tracker and make the value. Our engine (``own``) starts from cleared result
    attributes and gets the judges' usage copied onto the metric (after an error too, with ``score``, ``success``
    and ``error`` cleared); a user's metric is read as it left itself."""
    error: MeasureError | None = None
    skipped: str | None = None
    valued = own and getattr(metric, "returns_value", False)
    if own and not valued:
        metric.reset_result()
    value: Any = None
    with track_usage() as usage:
        try:
            value = await bounded(call(), timeout)
        except Exception as err:
            deadline = f"measure did not finish within {timeout} s" if deadline_text else None
            error, skipped = failure_of(err, metric, skip_on_missing_params, timeout_message=deadline)
    if valued:
        return _with_usage(metric, value if isinstance(value, MeasureResult) else None, usage, error, skipped)
    if own:
        if error is not None or skipped is not None:
            metric.score = metric.success = metric.error = None
        _copy_usage(metric, usage)
    try:
        return result_of(metric, usage, error=error, skipped=skipped)
    except Exception as err:  # a user metric whose result cannot be read (a raising property or __float__)
        error, _ = failure_of(err, metric, False)
        return MeasureResult(success=False, error=error)


def _with_usage(
    metric: BaseMetric,
    value: MeasureResult | None,
    usage: UsageTracker,
    error: MeasureError | None,
    skipped: str | None,
) -> MeasureResult:
    """Our engine's value with the judges' usage of the measure (tokens None when no judge reported any), or the
    value of a measure that raised (``error``) or was skipped."""
    recorded = usage.input_tokens or usage.output_tokens
    tracked = Usage(
        usage.input_tokens if recorded else None,
        usage.output_tokens if recorded else None,
        usage.cost,
        usage.llm_calls,
        usage.system_one_requests,
        usage.retries,
    )
    if value is not None and error is None and skipped is None:
        return replace(value, usage=tracked)
    threshold = as_float(getattr(metric, "threshold", None))
    success = None if skipped is not None else success_of(None, threshold, errored=True)
    return MeasureResult(success=success, usage=tracked, error=error, skipped=skipped)


def failure_of(
    err: Exception,
    metric: Any,
    skip_on_missing_params: bool = False,
    *,
    timeout_message: str | None = None,
) -> tuple[MeasureError | None, str | None]:
    """``(error, None)`` for ``err`` raised while measuring ``metric``, or ``(None, skip reason)`` for a missing
    test-case field under ``skip_on_missing_params``. A ``TimeoutError`` gets ``timeout_message`` when given."""
    if skip_on_missing_params and isinstance(err, MissingTestCaseParamsError):
        return None, f"skipped: {redact(str(err))}"
    if timeout_message is not None and isinstance(err, asyncio.TimeoutError):
        return error_of(err, metric, message=timeout_message), None
    return error_of(err, metric), None


def error_of(err: BaseException, metric: Any = None, *, message: str | None = None) -> MeasureError:
    """The :class:`MeasureError` of ``err`` raised while measuring ``metric`` (None: not a metric's): its kind by
    :func:`deepeval.errors.error_kind`, its type name and its message (``message`` instead of the exception's own),
    redacted; ``retryable`` as the judge said."""
    text = str(err).strip() if message is None else message
    return MeasureError(
        kind=error_kind(err, raised_by=metric),
        type=type(err).__name__,
        message=redact(text),
        retryable=isinstance(err, JudgeError) and err.retryable,
        exception=err,
    )


def apply(metric: BaseMetric, result: MeasureResult) -> float:
    """Set ``metric``'s result attributes from ``result`` and return its score; with an error, raise the original
    exception after leaving ``score``, ``success`` and ``error`` None (as deepeval 4.3.1)."""
    metric.score = result.score
    metric.reason = result.reason
    metric.success = result.success
    metric.error = None
    metric.evaluation_cost = result.usage.cost
    metric.input_tokens = result.usage.input_tokens
    metric.output_tokens = result.usage.output_tokens
    metric.verbose_logs = result.verbose_logs
    metric.confidence = result.confidence
    metric.score_breakdown = result.breakdown
    metric.system_one_fallback_reason = result.fallback_reason
    metric.evaluation_model = result.evaluation_model
    metric.verdicts = None if result.verdicts is None else list(result.verdicts)
    for name, value in result.attributes.items():
        setattr(metric, name, value)
    if result.error is not None:
        metric.score = metric.success = None
        if result.error.exception is not None:
            raise result.error.exception
        raise RuntimeError(result.error.display())
    assert result.score is not None
    return result.score


def _copy_usage(metric: BaseMetric, usage: UsageTracker) -> None:
    """``evaluation_cost`` (None when no judge reported a cost) and tokens (None when no judge reported any)."""
    metric.evaluation_cost = usage.cost
    recorded = usage.input_tokens or usage.output_tokens
    metric.input_tokens = usage.input_tokens if recorded else None
    metric.output_tokens = usage.output_tokens if recorded else None


# -- the value of a measured metric ------------------------------------------------------------------------------------
def result_of(
    metric: BaseMetric,
    usage: UsageTracker | None = None,
    *,
    error: MeasureError | None = None,
    skipped: str | None = None,
) -> MeasureResult:
    """The value of ``metric`` as its measure left it (a user metric's attributes, or our engine's, or a System
    One batch member's), with the usage ``usage`` recorded and the ``error`` it raised or the reason it was
    ``skipped``. Without either, an ``error`` the metric set itself, a score that is no (finite) number or none
    at all is the error (of kind :func:`~deepeval.errors.error_kind` of no exception). A metric's own
    ``evaluation_cost`` and tokens win over the tracker's."""
    is_skipped = skipped is not None or bool(getattr(metric, "skipped", False))
    if is_skipped and skipped is None:
        skipped = ""
    raw = getattr(metric, "score", None)
    score = None if is_skipped else as_float(raw)
    if error is None and not is_skipped:
        error = _reported_error(metric, raw, score)
    return MeasureResult(
        score=score,
        reason=_text(getattr(metric, "reason", None)),
        success=_success(metric, score, error is not None, is_skipped),
        verdicts=_verdicts(getattr(metric, "verdicts", None)),
        breakdown=getattr(metric, "score_breakdown", None),
        confidence=as_float(getattr(metric, "confidence", None)),
        fallback_reason=_text(getattr(metric, "system_one_fallback_reason", None)),
        evaluation_model=_text(getattr(metric, "evaluation_model", None)),
        verbose_logs=_text(getattr(metric, "verbose_logs", None)),
        usage=_usage(metric, usage),
        error=error,
        skipped=skipped,
    )


def _reported_error(metric: BaseMetric, raw: Any, score: float | None) -> MeasureError | None:
    message: str | None = None
    if getattr(metric, "error", None):
        message = redact(str(metric.error))
    elif score is not None and not math.isfinite(score):
        message = f"metric returned a non-finite score ({score})"
    elif score is None:
        message = (
            "metric finished without setting a score"
            if raw is None
            else f"metric set a score that is not a number ({type(raw).__name__})"
        )
    return None if message is None else MeasureError(error_kind(None, raised_by=metric), "", message)


def _success(metric: BaseMetric, score: float | None, errored: bool, skipped: bool) -> bool | None:
    """None when skipped; else :func:`~deepeval.metrics.scoring.success_of`, except that a metric's own
    ``is_successful()`` decides a measure with a score, a threshold and no error (a user metric may override it)."""
    if skipped:
        return None
    verdict = success_of(score, as_float(getattr(metric, "threshold", None)), errored=errored)
    if verdict is None or score is None or errored:
        return verdict
    try:
        return bool(metric.is_successful())
    except Exception:
        return verdict


def _usage(metric: BaseMetric, t: UsageTracker | None) -> Usage:
    cost = known_cost(as_float(getattr(metric, "evaluation_cost", None)))
    if cost is None and t is not None:
        cost = t.cost
    in_tok = _as_count(getattr(metric, "input_tokens", None))
    out_tok = _as_count(getattr(metric, "output_tokens", None))
    if in_tok is None and t is not None and (t.input_tokens or t.output_tokens):
        in_tok, out_tok = t.input_tokens, t.output_tokens
    if t is None:
        return Usage(in_tok, out_tok, cost)
    return Usage(in_tok, out_tok, cost, t.llm_calls, t.system_one_requests, t.retries)


def _verdicts(value: Any) -> tuple[dict[str, Any], ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return None
    return tuple(value)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def as_float(value: Any) -> float | None:
    """``float(value)``, None for None or anything that is not a number (a user metric's attribute)."""
    if value is None:
        return None
    try:
        return float(value)
    except (
        OverflowError
    ):  # an int beyond float (10**400): infinite, refused like inf (an error row, not a crash)
        return math.inf if value > 0 else -math.inf
    except (TypeError, ValueError):
        return None


def _as_count(value: Any) -> int | None:
    """A token count as an int (``12.0`` -> 12), None for anything that is not a whole non-negative number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return int(value) if value >= 0 and value == int(value) else None
    except (OverflowError, ValueError):  # inf, NaN
        return None
