"""Repeat aggregation: one row from the k repetitions of a (test case, metric) pair (``repeat=k``)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from deepeval.evaluate.results import MetricData, RepeatStats, usage_totals
from deepeval.metrics.scoring import mean_of, success_of


def aggregate_repeats(reps: list[MetricData]) -> MetricData:
    """One row from k repetitions: score = mean of the scores that exist; :class:`RepeatStats` with the
    population std and pass rate; cost/tokens/calls summed; confidence = min; reason and model from the first
    repetition; ``error`` set when any repetition errored; ``success`` by :func:`~deepeval.metrics.scoring.success_of`
    over the mean (False when errored, None without a threshold, else ``mean >= threshold``). All skipped -> the first skipped row."""
    first = reps[0]
    if all(r.skipped for r in reps):
        return first
    k = len(reps)
    scores = [r.score if r.error is None else None for r in reps]
    present = [s for s in scores if s is not None]
    mean = mean_of(present) if present else None
    std = statistics.pstdev(present) if present else None
    errors = [r for r in reps if r.error is not None]
    pass_rate = None if first.threshold is None else sum(1 for r in reps if r.success is True) / k
    error = error_kind = None
    if errors:
        error = f"{len(errors)} of {k} repetitions errored; first: {errors[0].error}"
        error_kind = errors[0].error_kind
    success = success_of(mean, first.threshold, errored=error is not None)
    ok = next((r for r in reps if r.error is None), first)
    confs = [r.confidence for r in reps if r.confidence is not None]
    # a repetition whose cost or tokens are unknown makes the row's unknown (not the sum of the others)
    cost, tokens_in, tokens_out = usage_totals(reps)
    return MetricData(
        name=first.name,
        threshold=first.threshold,
        success=success,
        score=mean,
        reason=ok.reason,
        strict_mode=first.strict_mode,
        evaluation_model=ok.evaluation_model,
        error=error,
        error_kind=error_kind,
        evaluation_cost=cost.whole,
        verbose_logs=ok.verbose_logs,
        confidence=min(confs) if confs else None,
        score_breakdown=ok.score_breakdown,
        system_one_fallback_reason=ok.system_one_fallback_reason,
        input_tokens=tokens_in.value if tokens_in.parts and not tokens_in.unknown else None,
        output_tokens=tokens_out.value if tokens_out.parts and not tokens_out.unknown else None,
        flaky=first.flaky,
        duration_s=_sum_opt(r.duration_s for r in reps),
        retries=sum(r.retries for r in reps),
        llm_calls=sum(r.llm_calls for r in reps),
        system_one_requests=sum(r.system_one_requests for r in reps),
        cached=all(r.cached for r in reps),
        prompt_version=ok.prompt_version,
        verdicts=ok.verdicts,
        repeat=RepeatStats(k=k, scores=scores, mean=mean, std=std, pass_rate=pass_rate, errors=len(errors)),
    )


def _sum_opt(values: Iterable[Any]) -> Any:
    vals = [v for v in values if v is not None]
    return sum(vals) if vals else None
