"""The results file deepeval 4.3.1 documents: one ``test_run_<YYYYMMDD_HHMMSS>.json`` per run in the results folder
(``_2``, ``_3``... when a file of that second exists), in its ``TestRun`` layout, so tools written against that file
find it here too.

Layout (camelCase keys, absent values left out, as deepeval's ``model_dump(by_alias=True, exclude_none=True)``):
``testCases`` (single-turn: ``name``, ``input``, ``actualOutput``, ``expectedOutput``, ``context``,
``retrievalContext``, ``toolsCalled``, ``expectedTools``, ``tokenCost``, ``completionTime``, ``tags``, ``flaky``,
``success``, ``metricsData``, ``runDuration``, ``evaluationCost``, ``order``, ``metadata``, ``comments``),
``conversationalTestCases`` (``turns`` with ``role``, ``content``, ``order``...; ``scenario``, ``expectedOutcome``,
``userDescription``), ``metricsScores`` (per metric: ``scores``, ``passes``, ``fails``, ``errors``),
``traceMetricsScores`` (component-level: per span type, span name and metric), ``identifier``,
``hyperparameters``, ``prompts``, ``testPassed``, ``testFailed``, ``runDuration``, ``evaluationCost``,
``official``. Each ``metricsData`` row: ``name``, ``threshold``, ``success``, ``score``, ``reason``,
``strictMode``, ``flaky``, ``evaluationModel``, ``error``, ``evaluationCost``, ``inputTokenCount``,
``outputTokenCount``, ``verboseLogs``.

Ours besides: a test case's or the run's ``evaluationCost`` is left out when some of its rows' cost is unknown
(deepeval sums the known ones and writes that as the cost); skipped rows (deepeval leaves them out) are left out here too; the spans of component-level evaluation
are listed under their golden's ``trace`` (``baseSpans``, ``agentSpans``, ``llmSpans``, ``retrieverSpans``,
``toolSpans``: each span's ``name``, ``type``, ``input``, ``output`` and ``metricsData``), a subset of deepeval's
span records (no uuids or timings). Our own ``<identifier>-<time>-<id>.json`` (the whole result, read back by
``deepeval view``) and the HTML report are written beside this file.
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

from deepeval._files import user_path
from deepeval._safe_path import refuse_link
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult, json_safe, usage_totals

_SPAN_KEYS = {
    "base": "baseSpans",
    "agent": "agentSpans",
    "llm": "llmSpans",
    "retriever": "retrieverSpans",
    "tool": "toolSpans",
}
_TOOL_KEYS = {"input_parameters": "inputParameters"}
_TRACE_KINDS = ("agent", "tool", "retriever", "llm", "base")


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def metric_data(m: MetricData) -> dict[str, Any]:
    """One row as deepeval writes it."""
    return _drop_none(
        {
            "name": m.name,
            "threshold": m.threshold,
            "success": m.success,
            "score": m.score,
            "reason": m.reason,
            "strictMode": m.strict_mode,
            "flaky": m.flaky,
            "evaluationModel": m.evaluation_model,
            "error": m.error,
            "evaluationCost": m.evaluation_cost,
            "inputTokenCount": m.input_tokens,
            "outputTokenCount": m.output_tokens,
            "verboseLogs": m.verbose_logs,
        }
    )


def _rows(t: TestResult) -> list[MetricData]:
    return [m for m in t.metrics_data if not m.skipped]


def _tools(tools: Any) -> Any:
    if not isinstance(tools, list):
        return tools
    return [
        {_TOOL_KEYS.get(k, k): v for k, v in call.items()} if isinstance(call, dict) else call
        for call in tools
    ]


def _cost(rows: list[MetricData]) -> float | None:
    """``evaluationCost`` of a test case or the run: the sum of its rows' costs, or None (left out) when no row's
    cost is known or when some row's cost is unknown: deepeval's readers take the number as the whole cost, and
    this file has no place to say it is partial (each row's own ``evaluationCost`` is still written; our run file
    keeps the lower bound with ``cost_partial``)."""
    cost = usage_totals(rows)[0]
    return None if cost.partial else cost.value


def _duration(rows: list[MetricData]) -> float:
    return sum(m.duration_s or 0.0 for m in rows)


def _success(t: TestResult) -> bool | None:
    """deepeval's case success: None when no non-flaky row decided, else False when one failed or errored."""
    if t.status == "skipped":
        return None
    return t.success


def _single(t: TestResult, order: int, spans: list[TestResult]) -> dict[str, Any]:
    rows = _rows(t)
    case = _drop_none(
        {
            "name": t.name,
            "input": t.input if t.input is not None else "",
            "actualOutput": t.actual_output,
            "expectedOutput": t.expected_output,
            "context": t.context,
            "retrievalContext": t.retrieval_context,
            "toolsCalled": _tools(t.tools_called),
            "expectedTools": _tools(t.expected_tools),
            "tokenCost": t.token_cost,
            "completionTime": t.completion_time,
            "tags": t.tags,
            "flaky": t.flaky,
            "success": _success(t),
            "metricsData": [metric_data(m) for m in rows],
            "runDuration": _duration(rows),
            "evaluationCost": _cost(rows),
            "order": order,
            "metadata": t.metadata,
            "comments": t.comments,
        }
    )
    if spans:
        trace: dict[str, Any] = {key: [] for key in _SPAN_KEYS.values()}
        for span in spans:
            trace[_SPAN_KEYS.get(span.span_type or "base", "baseSpans")].append(
                _drop_none(
                    {
                        "name": span.name,
                        "type": span.span_type or "base",
                        "input": span.input,
                        "output": span.actual_output,
                        "metricsData": [metric_data(m) for m in _rows(span)],
                    }
                )
            )
        case["trace"] = trace
    return case


def _turn(turn: Any, order: int) -> dict[str, Any]:
    get = turn.get if isinstance(turn, dict) else (lambda k, d=None: getattr(turn, k, d))
    return _drop_none(
        {
            "role": get("role"),
            "content": get("content"),
            "order": order,
            "userId": get("user_id"),
            "retrievalContext": get("retrieval_context"),
            "toolsCalled": _tools(get("tools_called")),
            "comments": get("comments"),
        }
    )


def _conversational(t: TestResult, order: int) -> dict[str, Any]:
    rows = _rows(t)
    return _drop_none(
        {
            "name": t.name,
            "success": bool(t.success),
            "metricsData": [metric_data(m) for m in rows],
            "runDuration": _duration(rows),
            "evaluationCost": _cost(rows),
            "turns": [_turn(turn, n) for n, turn in enumerate(t.turns or [])],
            "order": order,
            "scenario": t.scenario,
            "expectedOutcome": t.expected_outcome,
            "userDescription": t.user_description,
            "context": t.context,
            "comments": t.comments,
            "metadata": t.metadata,
            "tags": t.tags,
            "flaky": t.flaky,
        }
    )


def _scores(entries: dict[str, dict[str, Any]], m: MetricData) -> None:
    entry = entries.setdefault(m.name, {"metric": m.name, "scores": [], "passes": 0, "fails": 0, "errors": 0})
    if m.score is None or m.success is None:
        entry["errors"] += 1
        return
    entry["scores"].append(m.score)
    entry["passes" if m.success else "fails"] += 1


def test_run_dict(result: EvaluationResult) -> dict[str, Any]:
    """``result`` in deepeval 4.3.1's ``TestRun`` layout (see the module docstring)."""
    goldens = [t for t in result.test_results if t.span_type is None]
    spans: dict[int, list[TestResult]] = {}
    for t in result.test_results:
        if t.span_type is not None:
            spans.setdefault(t.index, []).append(t)
    single = [t for t in goldens if not t.conversational]
    conversations = [t for t in goldens if t.conversational]
    metric_scores: dict[str, dict[str, Any]] = {}
    span_scores: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for t in result.test_results:
        for m in _rows(t):
            _scores(metric_scores, m)
            if t.span_type is not None:
                _scores(span_scores.setdefault(t.span_type, {}).setdefault(t.name, {}), m)
    decided = [s for s in (_success(t) for t in goldens) if s is not None]
    return _drop_none(
        {
            "testCases": [_single(t, n, spans.get(t.index, [])) for n, t in enumerate(single)],
            "conversationalTestCases": [_conversational(t, n) for n, t in enumerate(conversations)],
            "metricsScores": list(metric_scores.values()),
            # as deepeval: every span type, in its order, once any span has a metric row
            "traceMetricsScores": {kind: span_scores.get(kind, {}) for kind in _TRACE_KINDS}
            if span_scores
            else None,
            "identifier": result.identifier,
            "hyperparameters": result.hyperparameters,
            "prompts": [],  # deepeval: the prompts among the hyperparameters (none here), always written
            "testPassed": sum(decided),
            "testFailed": len(decided) - sum(decided),
            "runDuration": result.duration_s or 0.0,
            "evaluationCost": _cost(result.metric_rows()),
            "official": False,
        }
    )


def write_test_run_file(result: EvaluationResult, folder: str | Path) -> Path:
    """Write ``test_run_<YYYYMMDD_HHMMSS>.json`` (local time, as deepeval; ``_2``, ``_3``... when a file of that
    second exists: created exclusively, so two runs never share one) into ``folder`` (``~`` expanded, created);
    return its path."""
    target = user_path(folder)
    target.mkdir(parents=True, exist_ok=True)
    # ASCII with \u escapes, as deepeval's json.dump writes it (a lone surrogate stays a readable escape); a
    # non-finite score or cost is null, as in our own export: a bare NaN is not JSON (jq, JSON.parse refuse it)
    body = json.dumps(json_safe(test_run_dict(result)), allow_nan=False).encode("ascii")
    stamp = _dt.datetime.now().strftime("%Y%m%d_%H%M%S")
    n = 1
    while True:
        path = target / (f"test_run_{stamp}.json" if n == 1 else f"test_run_{stamp}_{n}.json")
        refuse_link(path)
        try:
            with open(path, "xb") as f:
                f.write(body)
            return path
        except FileExistsError:
            n += 1


__all__ = ["metric_data", "test_run_dict", "write_test_run_file"]
