"""The async core of ``evaluate()``: expands (test case x metric x repetition) into work, serves cache hits,
merges System One plans, runs everything through a bounded worker pool and builds the result rows.

Scheduling: ``max_concurrent`` workers pull test cases in input order (one test case x repetition at a time, as
deepeval's ``max_concurrent`` counts test cases) and run that test case's work items concurrently (one item = one
``a_measure`` or one merged System One request); ``throttle_value`` seconds separate two test-case starts. Deadlines are per measure only
(``AsyncConfig.measure_timeout``, and the judge clients' own per-attempt timeouts); there is no whole-run deadline,
so every (test case, metric) pair ends up with a row. A measure past its deadline is abandoned, not awaited
(``deepeval._concurrency.bounded``): its row is a timeout error at once, whatever the metric does with the
cancellation, and a sync ``measure`` blocked in its (daemon) thread holds neither the run nor interpreter exit.
"""

from __future__ import annotations

import asyncio
import math
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from deepeval._concurrency import bounded, detached, to_daemon_thread
from deepeval.config import redact
from deepeval.errors import MissingTestCaseParamsError
from deepeval.evaluate.batching import Batch, group_plans, split_answers
from deepeval.evaluate.cache import ResultCache, cache_key
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import (
    MetricData,
    RepeatStats,
    TestResult,
    case_status,
    exportable_or_placeholder,
)
from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric, SystemOnePlan
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.usage import UsageTracker, record_usage, track_usage
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.test_case._base import revalidated

TestCase = LLMTestCase | ConversationalTestCase
RowKey = tuple[int, int, int]  # (test case index, metric index, repetition)
OnRow = Callable[[MetricData], None]


@dataclass
class _Job:
    key: RowKey
    test_case: TestCase
    metric: BaseMetric
    cache_key: str | None = None


@dataclass
class RunOutput:
    test_results: list[TestResult]
    cache_hits: int
    system_one_batches: int


def metric_name(metric: Any) -> str:
    """The metric's ``__name__`` (else its class name), interned: every row of a metric shares one string."""
    name = getattr(metric, "__name__", None)
    return sys.intern(name if isinstance(name, str) and name else type(metric).__name__)


def _judge_name(model: Any) -> str | None:
    """``evaluation_model`` as a string, interned (a run has a handful of distinct judge names)."""
    return None if model is None else sys.intern(str(model))


def format_error(err: BaseException) -> str:
    """``"<Type>: <message>"`` with secrets redacted (the type alone when the message is empty)."""
    text = str(err).strip()
    return redact(f"{type(err).__name__}: {text}" if text else type(err).__name__)


def _is_applicable(metric: BaseMetric, test_case: TestCase) -> str | None:
    """None when ``metric`` can run on ``test_case``, else the reason it is skipped."""
    conversational_metric = isinstance(metric, BaseConversationalMetric)
    if conversational_metric and not isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a conversational metric and this test case is single-turn"
    if not conversational_metric and isinstance(test_case, ConversationalTestCase):
        return f"skipped: {metric_name(metric)} is a single-turn metric and this test case is conversational"
    return None


def _success(metric: BaseMetric, score: float | None, error: str | None, skipped: bool) -> bool | None:
    if skipped:
        return None
    if error is not None or score is None:
        return False
    if getattr(metric, "threshold", None) is None:
        return None
    try:
        return bool(metric.is_successful())
    except Exception:
        return bool(score >= metric.threshold)  # type: ignore[operator]


def _as_float(value: Any) -> float | None:
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
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
    err = error
    if err is None and not skipped and getattr(metric, "error", None):
        err = redact(str(metric.error))
    if err is None and not skipped and score is not None and not math.isfinite(score):
        err = f"metric returned a non-finite score ({score})"
    if err is None and not skipped and score is None:
        raw = getattr(metric, "score", None)
        err = (
            "metric finished without setting a score"
            if raw is None
            else f"metric set a score that is not a number ({type(raw).__name__})"
        )
    t = tracker
    cost = _as_float(getattr(metric, "evaluation_cost", None))
    if cost is None and t is not None:
        cost = t.cost
    in_tok = getattr(metric, "input_tokens", None)
    out_tok = getattr(metric, "output_tokens", None)
    if in_tok is None and t is not None and (t.input_tokens or t.output_tokens):
        in_tok, out_tok = t.input_tokens, t.output_tokens
    model = getattr(metric, "evaluation_model", None)
    reason = skip_reason if skip_reason is not None else getattr(metric, "reason", None)
    return MetricData(
        name=metric_name(metric),
        threshold=_as_float(getattr(metric, "threshold", None)),
        success=_success(metric, score, err, skipped),
        score=score,
        reason=None if reason is None else redact(str(reason)),
        strict_mode=bool(getattr(metric, "strict_mode", False)),
        evaluation_model=_judge_name(model),
        error=err,
        evaluation_cost=cost,
        # Kept only when asked for (the metric's verbose_mode, or DisplayConfig.verbose_mode): at ~1-3 KB per row
        # these logs were the largest part of a big run's result.
        verbose_logs=_maybe_redact(getattr(metric, "verbose_logs", None)) if _verbose(metric) else None,
        confidence=_as_float(getattr(metric, "confidence", None)),
        score_breakdown=getattr(metric, "score_breakdown", None),
        system_one_fallback_reason=_maybe_redact(getattr(metric, "system_one_fallback_reason", None)),
        input_tokens=in_tok,
        output_tokens=out_tok,
        skipped=skipped,
        flaky=bool(getattr(metric, "flaky", False)),
        duration_s=duration_s,
        retries=t.retries if t else 0,
        llm_calls=t.llm_calls if t else 0,
        system_one_requests=t.system_one_requests if t else 0,
        prompt_version=_prompt_version(metric),
        verdicts=_verdicts(metric),
    )


def _verdicts(metric: BaseMetric) -> list[dict[str, Any]] | None:
    value = getattr(metric, "verdicts", None)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return None
    return [{k: redact(v) if isinstance(v, str) else v for k, v in item.items()} for item in value]


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


def _maybe_redact(value: Any) -> str | None:
    return None if value is None else redact(str(value))


class _Throttle:
    """At least ``interval`` seconds between two starts (FIFO through a lock)."""

    def __init__(self, interval: float) -> None:
        self.interval = float(interval)
        self._lock = asyncio.Lock()
        self._next = 0.0

    async def wait(self) -> None:
        if self.interval <= 0:
            return
        async with self._lock:
            loop = asyncio.get_running_loop()
            delay = self._next - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self._next = loop.time() + self.interval


class Runner:
    """One evaluation run. Build with the validated arguments, then ``await run()``."""

    def __init__(
        self,
        test_cases: Sequence[TestCase],
        metrics: Sequence[BaseMetric],
        async_config: AsyncConfig,
        display_config: DisplayConfig,
        cache_config: CacheConfig,
        error_config: ErrorConfig,
        repeat: int,
        cache: ResultCache | None,
        on_row: OnRow | None = None,
    ) -> None:
        self.test_cases = test_cases
        self.metrics = metrics
        self.async_config = async_config
        self.display_config = display_config
        self.cache_config = cache_config
        self.error_config = error_config
        self.repeat = repeat
        self.cache = cache
        self.on_row = on_row
        # One slot per (test case, metric, repetition), flat in that order: 8 bytes a row instead of a dict entry
        # and a key tuple (~150 bytes) each.
        self.rows: list[MetricData | None] = [None] * (len(test_cases) * len(metrics) * repeat)
        self._skip_reasons: dict[tuple[int, bool], str | None] = {}
        self.cache_hits = 0
        self.batches = 0

    # -- row bookkeeping -------------------------------------------------------------------------------------------
    def _finish(self, job: _Job, data: MetricData) -> None:
        self.rows[self._slot(job.key)] = data
        if self.cache is not None and self.cache_config.write_cache and not data.cached and job.cache_key:
            self.cache.put(job.cache_key, data)
        if self.on_row is not None:
            self.on_row(data)

    def _slot(self, key: RowKey) -> int:
        i, j, r = key
        return (i * len(self.metrics) + j) * self.repeat + r

    def _fresh(self, metric: BaseMetric) -> BaseMetric:
        copy = metric.fresh_copy()
        if self.display_config.verbose_mode is not None:
            copy.verbose_mode = self.display_config.verbose_mode
        return copy

    # -- work items ------------------------------------------------------------------------------------------------
    async def _measure(self, job: _Job) -> None:
        metric, tc = job.metric, job.test_case
        start = time.perf_counter()
        error: str | None = None
        skip: str | None = None
        with track_usage() as tracker:
            try:
                if self.async_config.run_async:
                    work: Awaitable[Any] = metric.a_measure(tc)  # type: ignore[arg-type]
                else:  # a daemon thread: one blocked past its deadline is abandoned, never joined
                    work = to_daemon_thread(metric.measure, tc)
                await bounded(work, self.async_config.measure_timeout)
            except MissingTestCaseParamsError as err:
                if self.error_config.skip_on_missing_params:
                    skip = f"skipped: {redact(str(err))}"
                else:
                    error = format_error(err)
            except asyncio.TimeoutError:
                error = f"TimeoutError: measure did not finish within {self.async_config.measure_timeout} s"
            except Exception as err:
                error = format_error(err)
        self._finish(
            job, build_row(metric, tracker, time.perf_counter() - start, error=error, skip_reason=skip)
        )

    async def _decide(self, batch: Batch[_Job]) -> None:
        self.batches += 1
        start = time.perf_counter()
        with track_usage() as tracker:
            try:
                timeout = self.async_config.measure_timeout
                # One normalisation for every System One call: bare answers accepted, junk named clearly.
                call = a_decide_checked(batch.model, batch.state, batch.questions)
                answers, cost = await bounded(call, timeout)
                if cost is not None:
                    record_usage(cost=cost)
            except Exception as err:
                failure: str | None = (
                    f"TimeoutError: System One request did not finish within {timeout} s"
                    if isinstance(err, asyncio.TimeoutError)
                    else format_error(err)
                )
            else:
                failure = None
        elapsed = time.perf_counter() - start
        info = {"request_s": elapsed, "metrics": len(batch.members), "questions": len(batch.questions)}
        if failure is not None:
            for n, member in enumerate(batch.members):
                row = build_row(member.key.metric, tracker if n == 0 else None, elapsed, error=failure)
                row.system_one_batch = dict(info)
                self._finish(member.key, row)
            return
        if answers.input_tokens is None and tracker.input_tokens:
            answers = answers.model_copy(
                update={"input_tokens": tracker.input_tokens, "output_tokens": tracker.output_tokens}
            )
        for n, (job, sub, cost_share) in enumerate(split_answers(batch, answers, cost)):
            share = len(batch.members[n].ids) / max(1, len(batch.questions))
            error = None
            with track_usage() as finish_tracker:
                try:
                    job.metric.system_one_finish(job.test_case, sub, cost_share)
                except Exception as err:
                    error = format_error(err)
            if job.metric.evaluation_cost is None and cost_share is not None:
                job.metric.evaluation_cost = cost_share
            if job.metric.input_tokens is None:
                job.metric.input_tokens, job.metric.output_tokens = sub.input_tokens, sub.output_tokens
            if n == 0:  # the request (and its retries) is counted once, on the first member
                finish_tracker.add(
                    system_one_requests=tracker.system_one_requests or 1,
                    retries=tracker.retries,
                    llm_calls=tracker.llm_calls,
                )
            row = build_row(job.metric, finish_tracker, elapsed * share, error=error)
            row.system_one_batch = dict(info)
            self._finish(job, row)

    # -- planning ----------------------------------------------------------------------------------------------------
    def _work(self) -> Iterator[list[_Item]]:
        """The work items of each (test case, repetition) in input order, planned lazily as the workers pull them.

        Lazy on purpose: a metric copy (and everything its measure keeps) lives only from its test case's planning
        until its row is final, so a run holds about ``max_concurrent`` copies at a time instead of one per
        (test case x metric x repetition) until the end. Rows that need no work (skipped, served from the cache, a
        plan that raised) are finished here as their test case is reached."""
        use_cache = self.cache is not None and self.cache_config.use_cache
        want_key = self.cache is not None and (self.cache_config.use_cache or self.cache_config.write_cache)
        for i, original in enumerate(self.test_cases):
            tc = self._checked(i, original)
            if tc is None:
                continue
            for r in range(self.repeat):
                group: list[_Item] = []
                plans: list[tuple[_Job, SystemOnePlan]] = []
                for j, metric in enumerate(self.metrics):
                    job = _Job((i, j, r), tc, metric)
                    try:
                        item = self._plan_job(job, use_cache, want_key, plans)
                    except Exception as err:  # a bug in a hook or here: this row errors, the run goes on
                        if self.rows[self._slot(job.key)] is None:
                            self._finish(
                                job,
                                build_row(
                                    job.metric, None, None, error=f"internal error: {format_error(err)}"
                                ),
                            )
                        continue
                    if item is not None:
                        group.append(item)
                for batch in group_plans(plans):
                    group.append(_Item(_bind(self._decide, batch), [m.key for m in batch.members]))
                if group:
                    yield group

    def _checked(self, i: int, tc: TestCase) -> TestCase | None:
        """The test case as its metrics will see it (:func:`revalidated`: lists changed after construction are
        checked again), or None after erroring every row of it when it no longer validates: only this test
        case's rows carry that error."""
        try:
            return revalidated(tc)  # type: ignore[return-value]
        except (TypeError, ValueError) as err:  # the class's invalid_input_error
            message = redact(f"invalid test case (changed after it was built?): {err}")
        for j, metric in enumerate(self.metrics):
            for r in range(self.repeat):
                self._finish(_Job((i, j, r), tc, metric), unrun_row(metric, error=message))
        return None

    def _plan_job(
        self, job: _Job, use_cache: bool, want_key: bool, plans: list[tuple[_Job, SystemOnePlan]]
    ) -> _Item | None:
        """Finish ``job`` now (skipped, cached, failed plan) and return None, add its System One plan to ``plans``
        and return None, or return the item that measures it."""
        metric, tc = job.metric, job.test_case
        skip = self._skip_reason(job.key[1], metric, tc)
        if skip is not None:
            self._finish(job, unrun_row(metric, reason=skip))
            return None
        job.cache_key = _safe_key(metric, tc, job.key[2]) if want_key else None
        if use_cache and job.cache_key and self.cache is not None:
            hit = self.cache.get(job.cache_key, metric_name(metric))
            if hit is not None:
                self.cache_hits += 1
                self._finish(job, hit)
                return None
        job.metric = self._fresh(metric)
        try:
            plan = job.metric.system_one_plan(tc)
        except MissingTestCaseParamsError as err:
            if self.error_config.skip_on_missing_params:
                self._finish(
                    job, build_row(job.metric, None, None, skip_reason=f"skipped: {redact(str(err))}")
                )
            else:
                self._finish(job, build_row(job.metric, None, None, error=format_error(err)))
            return None
        except Exception as err:
            self._finish(job, build_row(job.metric, None, None, error=format_error(err)))
            return None
        if plan is None:
            return _Item(_bind(self._measure, job), [job])
        plans.append((job, plan))
        return None

    def _skip_reason(self, j: int, metric: BaseMetric, tc: TestCase) -> str | None:
        """:func:`_is_applicable`, one string object per (metric, kind of test case) shared by all its rows."""
        key = (j, isinstance(tc, ConversationalTestCase))
        if key not in self._skip_reasons:
            reason = _is_applicable(metric, tc)
            self._skip_reasons[key] = None if reason is None else redact(reason)
        return self._skip_reasons[key]

    async def run(self) -> RunOutput:
        work = self._work()
        throttle = _Throttle(self.async_config.throttle_value)

        async def run_item(item: _Item) -> None:
            try:
                await item.run()
            except Exception as err:  # a bug in a metric hook or here: record it, never lose the rows
                for job in item.jobs:
                    if self.rows[self._slot(job.key)] is None:
                        self._finish(
                            job,
                            build_row(job.metric, None, None, error=f"internal error: {format_error(err)}"),
                        )

        async def worker() -> None:
            # ``next(work)`` never awaits, so the workers of this one event loop take turns on the generator.
            for group in work:
                await throttle.wait()
                if self.async_config.run_async:
                    await asyncio.gather(*(run_item(item) for item in group))
                else:  # sync measures run one at a time
                    for item in group:
                        await run_item(item)
                del group  # the metric copies go as soon as their rows are final

        n_workers = self.async_config.max_concurrent if self.async_config.run_async else 1
        workers = [asyncio.create_task(worker()) for _ in range(n_workers)]
        try:
            # detached: a Ctrl-C (cancellation) ends the run now, even if a metric swallows its cancellation
            await detached(asyncio.gather(*workers))
        finally:
            for w in workers:
                w.cancel()
        return RunOutput(self._results(), self.cache_hits, self.batches)

    # -- results -------------------------------------------------------------------------------------------------------
    def _results(self) -> list[TestResult]:
        out: list[TestResult] = []
        for i, tc in enumerate(self.test_cases):
            out.append(test_result(i, tc, [self._row(i, j) for j in range(len(self.metrics))]))
        return out

    def _row(self, i: int, j: int) -> MetricData:
        reps = [self.rows[self._slot((i, j, r))] or self._missing(j) for r in range(self.repeat)]
        return reps[0] if self.repeat == 1 else aggregate_repeats(reps)

    def _missing(self, j: int) -> MetricData:
        """Stands in for a row that was never recorded (a bug): the run still returns every row."""
        return MetricData(name=metric_name(self.metrics[j]), error="internal error: no result was recorded")


def _bind(fn: Callable[[Any], Awaitable[None]], arg: Any) -> Callable[[], Awaitable[None]]:
    return lambda: fn(arg)


@dataclass
class _Item:
    """One unit of scheduled work and the rows it is responsible for."""

    run: Callable[[], Awaitable[None]]
    jobs: list[_Job]


def _safe_key(metric: BaseMetric, tc: TestCase, repeat_index: int) -> str | None:
    """The cache key, or None (no caching for this row) when the metric's ``cache_config()`` fails."""
    try:
        return cache_key(metric, tc, repeat_index)
    except Exception:
        return None


def aggregate_repeats(reps: list[MetricData]) -> MetricData:
    """One row from k repetitions: score = mean of the scores that exist; :class:`RepeatStats` with the
    population std and pass rate; cost/tokens/calls summed; confidence = min; reason and model from the first
    repetition; ``error`` set (and ``success`` False) when any repetition errored; ``success`` otherwise is
    ``mean >= threshold`` (None without a threshold). All skipped -> the first skipped row."""
    first = reps[0]
    if all(r.skipped for r in reps):
        return first
    k = len(reps)
    scores = [r.score if r.error is None else None for r in reps]
    present = [s for s in scores if s is not None]
    mean = statistics.fmean(present) if present else None
    std = statistics.pstdev(present) if present else None
    errors = [r for r in reps if r.error is not None]
    pass_rate = None if first.threshold is None else sum(1 for r in reps if r.success is True) / k
    error = None
    if errors:
        error = f"{len(errors)} of {k} repetitions errored; first: {errors[0].error}"
    if error is not None or mean is None:
        success: bool | None = False
    elif first.threshold is None:
        success = None
    else:
        success = mean >= first.threshold
    ok = next((r for r in reps if r.error is None), first)
    costs = [r.evaluation_cost for r in reps if r.evaluation_cost is not None]
    confs = [r.confidence for r in reps if r.confidence is not None]
    return MetricData(
        name=first.name,
        threshold=first.threshold,
        success=success,
        score=mean,
        reason=ok.reason,
        strict_mode=first.strict_mode,
        evaluation_model=ok.evaluation_model,
        error=error,
        evaluation_cost=sum(costs) if costs else None,
        verbose_logs=ok.verbose_logs,
        confidence=min(confs) if confs else None,
        score_breakdown=ok.score_breakdown,
        system_one_fallback_reason=ok.system_one_fallback_reason,
        input_tokens=_sum_opt(r.input_tokens for r in reps),
        output_tokens=_sum_opt(r.output_tokens for r in reps),
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


def _sum_opt(values: Any) -> Any:
    vals = [v for v in values if v is not None]
    return sum(vals) if vals else None


def test_result(index: int, tc: TestCase, rows: list[MetricData]) -> TestResult:
    """A :class:`TestResult` carrying the test case's fields as plain data; ``success`` by :func:`case_status`.
    Never raises for odd content: metadata that no report can hold (circular, too deep, a huge int) becomes a
    ``"<not exported: ...>"`` placeholder, and items changed to the wrong type after construction are shown as they
    are (that test case's rows carry the error, see :func:`deepeval.test_case._base.revalidated`)."""
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
