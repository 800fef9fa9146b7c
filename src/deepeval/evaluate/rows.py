"""Result rows: one :class:`MetricData` per (test case, metric), and the :class:`TestResult` of a test case.

Everything a row holds comes from here: a measured row from the measure's value
(:class:`~deepeval.metrics.result.MeasureResult`: score, verdict, usage, the error with its kind), redacted, and the
metric's configuration; and the row of a pair the runner does not run (skipped, or a test case that no longer
validates). The runner (:mod:`deepeval.evaluate.runner`) and the Ray backend
(:mod:`deepeval.evaluate.backends.ray`) build their rows through these functions only.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from deepeval.config import redact
from deepeval.config.settings import current_secrets
from deepeval.errors import ErrorKind
from deepeval.evaluate.results import MetricData, TestResult, case_status, exportable_or_placeholder
from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric
from deepeval.metrics.flow import as_float, error_of, result_of
from deepeval.metrics.result import MeasureError, MeasureResult
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

TestCase = LLMTestCase | ConversationalTestCase


def metric_name(metric: Any) -> str:
    """The metric's ``__name__`` (else its class name), interned: every row of a metric shares one string."""
    name = getattr(metric, "__name__", None)
    return sys.intern(name if isinstance(name, str) and name else type(metric).__name__)


def _judge_name(model: Any, secrets: dict[str, str] | None = None) -> str | None:
    """``evaluation_model`` as a string, redacted (a custom model's name can be built from its settings) and
    interned (a run has a handful of distinct judge names)."""
    return None if model is None else sys.intern(redact(str(model), secrets))


def format_error(err: BaseException) -> str:
    """``"<Type>: <message>"`` with secrets redacted (the type alone when the message is empty)."""
    return error_of(err).display()


@dataclass(frozen=True)
class RowError:
    """The error of a row that measured nothing (:func:`unrun_row`: a test case that no longer validates, a span
    that raised): its text (``MetricData.error``, redacted) and its kind (``MetricData.error_kind``)."""

    message: str
    kind: str


def internal_error(err: BaseException) -> MeasureError:
    """The error of a bug of this package (a metric hook or the runner failed): ``internal``."""
    return MeasureError(ErrorKind.internal, "", f"internal error: {format_error(err)}", exception=err)


def failed_row(metric: BaseMetric, error: MeasureError, duration_s: float | None = None) -> MetricData:
    """The row of a measure that failed before it measured anything (a failed plan, a failed System One request,
    a bug): the metric as it is (a fresh copy: no result) with ``error``."""
    return build_row(metric, result_of(metric, error=error), duration_s)


def not_applicable_reason(metric: BaseMetric, test_case: TestCase) -> str | None:
    """None when ``metric`` can run on ``test_case``, else the reason it is skipped."""
    conversational_metric = isinstance(metric, BaseConversationalMetric)
    if conversational_metric and not isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a conversational metric and this test case is single-turn"
    if not conversational_metric and isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a single-turn metric and this test case is conversational"
    return None


def build_row(metric: BaseMetric, result: MeasureResult, duration_s: float | None) -> MetricData:
    """A :class:`MetricData` from a measure's value (:func:`deepeval.metrics.flow.run_measure`, or
    :func:`~deepeval.metrics.flow.result_of` for a System One batch member and a measure that never ran) and the
    metric's configuration (name, threshold, strict mode, flaky, prompt version). Texts are redacted here; the
    error's text is :meth:`~deepeval.metrics.result.MeasureError.display`. ``verbose_logs`` is copied only when the
    metric ran with ``verbose_mode`` on."""
    skipped = result.skipped is not None
    reason = result.skipped if result.skipped else result.reason
    err = result.error
    usage = result.usage
    secrets = current_secrets()  # once per row: each lookup reads the environment and the dotenv files
    return MetricData(
        name=metric_name(metric),
        threshold=as_float(getattr(metric, "threshold", None)),
        success=result.success,
        score=result.score,
        reason=None if reason is None else redact(reason, secrets),
        strict_mode=bool(getattr(metric, "strict_mode", False)),
        evaluation_model=_judge_name(result.evaluation_model, secrets),
        error=None if err is None else err.display(),
        error_kind=None if err is None else str(err.kind),
        evaluation_cost=usage.cost,
        # Kept only when asked for (the metric's verbose_mode, or DisplayConfig.verbose_mode): at ~1-3 KB per row
        # these logs were the largest part of a big run's result.
        verbose_logs=_maybe_redact(result.verbose_logs, secrets) if _verbose(metric) else None,
        confidence=result.confidence,
        score_breakdown=result.breakdown,
        system_one_fallback_reason=_maybe_redact(result.fallback_reason, secrets),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        skipped=skipped,
        flaky=bool(getattr(metric, "flaky", False)),
        duration_s=duration_s,
        retries=usage.retries,
        llm_calls=usage.llm_calls,
        system_one_requests=usage.system_one_requests,
        prompt_version=_prompt_version(metric),
        verdicts=_verdicts(result.verdicts, secrets),
    )


def _verdicts(
    value: tuple[dict[str, Any], ...] | None, secrets: dict[str, str]
) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    return [{k: redact(v, secrets) if isinstance(v, str) else v for k, v in item.items()} for item in value]


def _prompt_version(metric: BaseMetric) -> str | None:
    try:
        version = getattr(metric, "prompt_version", None)
    except Exception:  # a user property that raises must not cost the row
        return None
    return sys.intern(version) if isinstance(version, str) else None


def _verbose(metric: BaseMetric) -> bool:
    return bool(getattr(metric, "verbose_mode", False))


def unrun_row(metric: BaseMetric, *, reason: str | None = None, error: RowError | None = None) -> MetricData:
    """The row of a (metric, test case) pair the runner does not run: skipped with ``reason`` (wrong kind of test
    case), or failed with ``error`` (a test case that no longer validates). Only the metric's configuration is
    read, no result attribute, so the original metric can be passed (no copy is made for a row that measures
    nothing)."""
    model = getattr(metric, "evaluation_model", None)
    return MetricData(
        name=metric_name(metric),
        threshold=as_float(getattr(metric, "threshold", None)),
        success=None if error is None else False,
        reason=reason,
        strict_mode=bool(getattr(metric, "strict_mode", False)),
        evaluation_model=_judge_name(model),
        error=None if error is None else error.message,
        error_kind=None if error is None else error.kind,
        skipped=error is None,
        flaky=bool(getattr(metric, "flaky", False)),
    )


def missing_row(metric: BaseMetric) -> MetricData:
    """Stands in for a row that was never recorded (a bug): the run still returns every row."""
    return MetricData(
        name=metric_name(metric),
        error="internal error: no result was recorded",
        error_kind=ErrorKind.internal.value,
    )


#: the error of a row whose run was stopped (SIGINT, SIGTERM, a cancelled task) before it finished
INTERRUPTED_ERROR = "interrupted: the run was stopped before this row finished"


def interrupted_row(metric: BaseMetric) -> MetricData:
    """Stands in for a row an interrupted run did not finish: the partial result still has every row."""
    return MetricData(
        name=metric_name(metric), error=INTERRUPTED_ERROR, error_kind=ErrorKind.interrupted.value
    )


def _maybe_redact(value: Any, secrets: dict[str, str] | None = None) -> str | None:
    return None if value is None else redact(str(value), secrets)


def test_result(
    index: int, tc: TestCase, rows: list[MetricData], skipped_metrics: list[MetricData] | None = None
) -> TestResult:
    """A :class:`TestResult` carrying the test case's fields as plain data; ``success`` by :func:`case_status`
    over ``rows`` (``skipped_metrics``, the rows deepeval leaves out, do not count).
    Never raises for odd content: metadata that no report can hold (circular, too deep, a huge int) becomes a
    ``"<not exported: ...>"`` placeholder, and items changed to the wrong type after construction are shown as they
    are (that test case's rows carry the error, see :func:`deepeval.test_case.base.revalidated`)."""
    # deepeval's default names: conversational_test_case_N for a conversation, test_case_N otherwise
    default = (
        f"conversational_test_case_{index}"
        if isinstance(tc, ConversationalTestCase)
        else f"test_case_{index}"
    )
    name = tc.name if isinstance(tc.name, str) and tc.name else default
    success = case_status(rows) == "passed"
    metadata = exportable_or_placeholder(tc.metadata, "metadata")
    own = {"comments": _text_or_none(tc.comments), "flaky": tc.flaky is True}
    if isinstance(tc, ConversationalTestCase):
        return TestResult(
            name=name,
            success=success,
            metrics_data=rows,
            conversational=True,
            index=index,
            context=exportable_or_placeholder(tc.context, "context"),
            turns=[_turn_data(t, n) for n, t in enumerate(tc.turns)],
            metadata=metadata,
            tags=exportable_or_placeholder(tc.tags, "tags"),
            skipped_metrics=list(skipped_metrics) if skipped_metrics else None,
            case_fields=_set_only(
                own,
                scenario=_text_or_none(tc.scenario),
                expected_outcome=_text_or_none(tc.expected_outcome),
                user_description=_text_or_none(tc.user_description),
            ),
        )
    return TestResult(
        name=name,
        success=success,
        metrics_data=rows,
        conversational=False,
        index=index,
        input=tc.input,
        actual_output=tc.actual_output,
        expected_output=tc.expected_output,
        context=exportable_or_placeholder(tc.context, "context"),
        retrieval_context=exportable_or_placeholder(tc.retrieval_context_texts(), "retrieval_context"),
        metadata=metadata,
        tags=exportable_or_placeholder(tc.tags, "tags"),
        skipped_metrics=list(skipped_metrics) if skipped_metrics else None,
        case_fields=_set_only(
            own,
            tools_called=exportable_or_placeholder(tc.tools_called, "tools_called"),
            expected_tools=exportable_or_placeholder(tc.expected_tools, "expected_tools"),
            token_cost=_number_or_none(tc.token_cost),
            completion_time=_number_or_none(tc.completion_time),
        ),
    )


def _set_only(common: dict[str, Any], **fields: Any) -> dict[str, Any] | None:
    """:attr:`TestResult.case_fields`: the values that are set (``flaky`` only when True), None when none is."""
    out = {k: v for k, v in {**common, **fields}.items() if v is not None and v is not False}
    return out or None


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number_or_none(value: Any) -> float | None:
    """A finite number as a float (a test case's cost or time), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _turn_data(turn: Any, n: int) -> dict[str, Any]:
    """One turn as plain data, field by field (a field no report can hold becomes a placeholder, the rest is kept)."""
    fields: Iterable[tuple[Any, Any]]
    if isinstance(turn, dict):
        fields = turn.items()
    elif isinstance(turn, Turn):
        fields = ((f, getattr(turn, f)) for f in Turn.model_fields if getattr(turn, f, None) is not None)
    else:
        return {"content": exportable_or_placeholder(turn, f"turns[{n}] ({type(turn).__name__}, not a Turn)")}
    return {str(k): exportable_or_placeholder(v, f"turns[{n}].{k}") for k, v in fields}


test_result.__test__ = False  # type: ignore[attr-defined]
