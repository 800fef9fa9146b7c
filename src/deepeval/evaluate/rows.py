"""Result rows: one :class:`MetricData` per (test case, metric), and the :class:`TestResult` of a test case.

Everything a row holds comes from here: the metric's name and judge, its score and verdict, the usage its measure
recorded, the error of a measure that raised (redacted), and the row of a pair the runner does not run (skipped,
or a test case that no longer validates). The runner (:mod:`deepeval.evaluate.runner`) and the Ray backend
(:mod:`deepeval.evaluate.backends.ray`) build their rows through these functions only.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from typing import Any

from deepeval.config import redact
from deepeval.config.settings import current_secrets
from deepeval.evaluate.results import MetricData, TestResult, case_status, exportable_or_placeholder
from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric
from deepeval.metrics.scoring import success_of
from deepeval.models.usage import UsageTracker
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
    text = str(err).strip()
    return redact(f"{type(err).__name__}: {text}" if text else type(err).__name__)


def not_applicable_reason(metric: BaseMetric, test_case: TestCase) -> str | None:
    """None when ``metric`` can run on ``test_case``, else the reason it is skipped."""
    conversational_metric = isinstance(metric, BaseConversationalMetric)
    if conversational_metric and not isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a conversational metric and this test case is single-turn"
    if not conversational_metric and isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a single-turn metric and this test case is conversational"
    return None


def _success(metric: BaseMetric, score: float | None, error: str | None, skipped: bool) -> bool | None:
    """None for a skipped row; else :func:`~deepeval.metrics.scoring.success_of`, except that a metric's own
    ``is_successful()`` decides a row with a score and a threshold (a user metric may override it)."""
    if skipped:
        return None
    threshold = _as_float(getattr(metric, "threshold", None))
    verdict = success_of(score, threshold, errored=error is not None)
    if verdict is None or score is None or error is not None:
        return verdict
    try:
        return bool(metric.is_successful())
    except Exception:
        return verdict


def _as_float(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _as_count(value: Any) -> int | None:
    """A token count as an int (``12.0`` -> 12), None for anything that is not a whole non-negative number (a row
    read back is checked by :func:`~deepeval.evaluate.results.metric_row_problem`)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return int(value) if value >= 0 and value == int(value) else None
    except (OverflowError, ValueError):  # inf, NaN
        return None


def _row_error(metric: BaseMetric, score: float | None, error: str | None, skipped: bool) -> str | None:
    """The row's error: the runner's (an exception), else the metric's own, else a score that is no number."""
    if error is not None or skipped:
        return error
    if getattr(metric, "error", None):
        return redact(str(metric.error))
    if score is not None and not math.isfinite(score):
        return f"metric returned a non-finite score ({score})"
    if score is None:
        raw = getattr(metric, "score", None)
        return (
            "metric finished without setting a score"
            if raw is None
            else f"metric set a score that is not a number ({type(raw).__name__})"
        )
    return None


def build_row(
    metric: BaseMetric,
    tracker: UsageTracker | None,
    duration_s: float | None,
    *,
    error: str | None = None,
    skip_reason: str | None = None,
) -> MetricData:
    """A :class:`MetricData` from a measured metric copy, the usage its measure recorded, and the runner's verdict
    (``error`` from an exception; ``skip_reason`` for skipped rows). ``verbose_logs`` is copied only when the
    metric ran with ``verbose_mode`` on."""
    skipped = skip_reason is not None or bool(getattr(metric, "skipped", False))
    score = None if skipped else _as_float(getattr(metric, "score", None))
    err = _row_error(metric, score, error, skipped)
    t = tracker
    cost = _as_float(getattr(metric, "evaluation_cost", None))
    if cost is None and t is not None:
        cost = t.cost
    in_tok = _as_count(getattr(metric, "input_tokens", None))
    out_tok = _as_count(getattr(metric, "output_tokens", None))
    if in_tok is None and t is not None and (t.input_tokens or t.output_tokens):
        in_tok, out_tok = t.input_tokens, t.output_tokens
    model = getattr(metric, "evaluation_model", None)
    reason = skip_reason if skip_reason is not None else getattr(metric, "reason", None)
    secrets = current_secrets()  # once per row: each lookup reads the environment and the dotenv files
    return MetricData(
        name=metric_name(metric),
        threshold=_as_float(getattr(metric, "threshold", None)),
        success=_success(metric, score, err, skipped),
        score=score,
        reason=None if reason is None else redact(str(reason), secrets),
        strict_mode=bool(getattr(metric, "strict_mode", False)),
        evaluation_model=_judge_name(model, secrets),
        error=err,
        evaluation_cost=cost,
        # Kept only when asked for (the metric's verbose_mode, or DisplayConfig.verbose_mode): at ~1-3 KB per row
        # these logs were the largest part of a big run's result.
        verbose_logs=_maybe_redact(getattr(metric, "verbose_logs", None), secrets)
        if _verbose(metric)
        else None,
        confidence=_as_float(getattr(metric, "confidence", None)),
        score_breakdown=getattr(metric, "score_breakdown", None),
        system_one_fallback_reason=_maybe_redact(
            getattr(metric, "system_one_fallback_reason", None), secrets
        ),
        input_tokens=in_tok,
        output_tokens=out_tok,
        skipped=skipped,
        flaky=bool(getattr(metric, "flaky", False)),
        duration_s=duration_s,
        retries=t.retries if t else 0,
        llm_calls=t.llm_calls if t else 0,
        system_one_requests=t.system_one_requests if t else 0,
        prompt_version=_prompt_version(metric),
        verdicts=_verdicts(metric, secrets),
    )


def _verdicts(metric: BaseMetric, secrets: dict[str, str]) -> list[dict[str, Any]] | None:
    value = getattr(metric, "verdicts", None)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
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


def unrun_row(metric: BaseMetric, *, reason: str | None = None, error: str | None = None) -> MetricData:
    """The row of a (metric, test case) pair the runner does not run: skipped with ``reason`` (wrong kind of test
    case), or failed with ``error`` (a test case that no longer validates). Only the metric's configuration is
    read, no result attribute, so the original metric can be passed (no copy is made for a row that measures
    nothing)."""
    model = getattr(metric, "evaluation_model", None)
    return MetricData(
        name=metric_name(metric),
        threshold=_as_float(getattr(metric, "threshold", None)),
        success=None if error is None else False,
        reason=reason,
        strict_mode=bool(getattr(metric, "strict_mode", False)),
        evaluation_model=_judge_name(model),
        error=error,
        skipped=error is None,
        flaky=bool(getattr(metric, "flaky", False)),
    )


def missing_row(metric: BaseMetric) -> MetricData:
    """Stands in for a row that was never recorded (a bug): the run still returns every row."""
    return MetricData(name=metric_name(metric), error="internal error: no result was recorded")


#: the error of a row whose run was stopped (SIGINT, SIGTERM, a cancelled task) before it finished
INTERRUPTED_ERROR = "interrupted: the run was stopped before this row finished"


def interrupted_row(metric: BaseMetric) -> MetricData:
    """Stands in for a row an interrupted run did not finish: the partial result still has every row."""
    return MetricData(name=metric_name(metric), error=INTERRUPTED_ERROR)


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
    )


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
