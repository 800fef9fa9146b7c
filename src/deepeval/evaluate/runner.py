"""The async core of ``evaluate()``: expands (test case x metric x repetition) into work, serves cache hits,
merges System One plans, and turns each measure into its row.

One job per module: this one plans and performs the work of a run; :mod:`deepeval.evaluate.scheduling` decides
when each piece runs (``max_concurrent`` workers, ``throttle_value``); :mod:`deepeval.evaluate.rows` builds the
rows and test results; :mod:`deepeval.evaluate.repeats` folds the repetitions of a pair into one row.

Deadlines are per measure only (``AsyncConfig.measure_timeout``, and the judge clients' own per-attempt timeouts);
there is no whole-run deadline, so every (test case, metric) pair ends up with a row. A measure past its deadline is
abandoned, not awaited (``deepeval._concurrency.bounded``): its row is a timeout error at once, whatever the metric
does with the cancellation, and a sync ``measure`` blocked in its (daemon) thread holds neither the run nor
interpreter exit.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from deepeval._concurrency import bounded
from deepeval.config import redact
from deepeval.errors import ErrorKind
from deepeval.evaluate.batching import Batch, group_plans, split_answers
from deepeval.evaluate.cache import ResultCache, cache_key
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.repeats import aggregate_repeats
from deepeval.evaluate.results import MetricData, TestResult
from deepeval.evaluate.rows import (
    RowError,
    build_row,
    failed_row,
    format_error,
    internal_error,
    interrupted_row,
    metric_name,
    missing_row,
    not_applicable_reason,
    test_result,
    unrun_row,
)
from deepeval.evaluate.scheduling import WorkItem, bind, run_pool
from deepeval.metrics.base_metric import BaseMetric, SystemOnePlan
from deepeval.metrics.flow import error_of, failure_of, result_of, run_measure
from deepeval.metrics.result import MeasureError
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.usage import record_usage, track_usage
from deepeval.test_case import ConversationalTestCase, LLMTestCase
from deepeval.test_case.base import revalidated

__all__ = [
    "OnRow",
    "RunOutput",
    "Runner",
    "aggregate_repeats",
    "build_row",
    "format_error",
    "metric_name",
    "test_result",
    "unrun_row",
]

TestCase = LLMTestCase | ConversationalTestCase
RowKey = tuple[int, int, int]  # (test case index, metric index, repetition)
OnRow = Callable[[MetricData, int], None]


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
    finished: int | None = None  # set for an interrupted run (:meth:`Runner.interrupted_output`)
    total: int | None = None
    #: the first exception a measure (or a System One request) raised, for callers that re-raise it
    first_exception: BaseException | None = None
    #: notes for the result's ``extras`` (``cache_error``: the default cache could not be used)
    extras: dict[str, Any] = field(default_factory=dict)


class Runner:
    """One evaluation run. Build with the validated arguments, then ``await run()``.

    Every test case gets ``metrics``, unless ``case_metrics`` gives each test case its own list (component-level
    evaluation: each span has its own metrics). Skipped rows other than a metric of the wrong kind of test case
    (missing parameters under ``skip_on_missing_params``, a metric that marked itself skipped) go to the test
    result's ``skipped_metrics``, as deepeval leaves them out of ``metrics_data``."""

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
        case_metrics: Sequence[Sequence[BaseMetric]] | None = None,
    ) -> None:
        if case_metrics is not None and len(case_metrics) != len(test_cases):
            raise ValueError(f"case_metrics has {len(case_metrics)} lists for {len(test_cases)} test cases")
        self.test_cases = test_cases
        self.metrics = metrics
        self.case_metrics = case_metrics
        self.async_config = async_config
        self.display_config = display_config
        self.cache_config = cache_config
        self.error_config = error_config
        self.repeat = repeat
        self.cache = cache
        self.on_row = on_row
        # One slot per (test case, metric, repetition), flat in that order: 8 bytes a row instead of a dict entry
        # and a key tuple (~150 bytes) each. With per-case metric lists, test case i starts at _offsets[i].
        self._offsets: list[int] | None = None
        total = len(test_cases) * len(metrics) * repeat
        if case_metrics is not None:
            self._offsets, total = [], 0
            for ms in case_metrics:
                self._offsets.append(total)
                total += len(ms) * repeat
        self.rows: list[MetricData | None] = [None] * total
        self._skip_reasons: dict[tuple[int, bool], str | None] = {}
        self._kept_skips: set[int] = (
            set()
        )  # slots skipped for the wrong kind of test case: kept in metrics_data
        self.cache_hits = 0
        self.batches = 0
        self._interrupted = False
        self.first_exception: BaseException | None = None

    # -- row bookkeeping -------------------------------------------------------------------------------------------
    def _finish(self, job: _Job, data: MetricData) -> None:
        self.rows[self._slot(job.key)] = data
        if self.cache is not None and self.cache_config.write_cache and not data.cached and job.cache_key:
            self.cache.put(job.cache_key, data)
        if self.on_row is not None:
            self.on_row(data, job.key[0])

    def _slot(self, key: RowKey) -> int:
        i, j, r = key
        base = i * len(self.metrics) * self.repeat if self._offsets is None else self._offsets[i]
        return base + j * self.repeat + r

    def _metrics_of(self, i: int) -> Sequence[BaseMetric]:
        return self.metrics if self.case_metrics is None else self.case_metrics[i]

    def _failed(self, error: MeasureError | None) -> MeasureError | None:
        """``error`` (a measure's), keeping the first exception of the run."""
        if error is not None and error.exception is not None and self.first_exception is None:
            self.first_exception = error.exception
        return error

    def _fresh(self, metric: BaseMetric) -> BaseMetric:
        copy = metric.fresh_copy()
        if self.display_config.verbose_mode is not None:
            copy.verbose_mode = self.display_config.verbose_mode
        return copy

    # -- work items ------------------------------------------------------------------------------------------------
    async def _measure(self, job: _Job) -> None:
        start = time.perf_counter()
        result = await run_measure(
            job.metric,
            job.test_case,
            run_async=self.async_config.run_async,
            timeout=self.async_config.measure_timeout,
            skip_on_missing_params=self.error_config.skip_on_missing_params,
            evaluating=True,
        )
        self._failed(result.error)
        self._finish(job, build_row(job.metric, result, time.perf_counter() - start))

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
                failure: MeasureError | None = (
                    error_of(err, message=f"System One request did not finish within {timeout} s")
                    if isinstance(err, asyncio.TimeoutError)
                    else self._failed(error_of(err, batch.members[0].key.metric))
                )
            else:
                failure = None
        elapsed = time.perf_counter() - start
        info = {"request_s": elapsed, "metrics": len(batch.members), "questions": len(batch.questions)}
        if failure is not None:
            for n, member in enumerate(batch.members):
                metric = member.key.metric
                row = build_row(
                    metric, result_of(metric, tracker if n == 0 else None, error=failure), elapsed
                )
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
                    error = self._failed(error_of(err, job.metric))
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
            row = build_row(job.metric, result_of(job.metric, finish_tracker, error=error), elapsed * share)
            row.system_one_batch = dict(info)
            self._finish(job, row)

    # -- planning ----------------------------------------------------------------------------------------------------
    def _work(self) -> Iterator[list[WorkItem]]:
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
                group: list[WorkItem] = []
                plans: list[tuple[_Job, SystemOnePlan]] = []
                for j, metric in enumerate(self._metrics_of(i)):
                    job = _Job((i, j, r), tc, metric)
                    try:
                        item = self._plan_job(job, use_cache, want_key, plans)
                    except Exception as err:  # a bug in a hook or here: this row errors, the run goes on
                        if self.rows[self._slot(job.key)] is None:
                            self._finish(job, failed_row(job.metric, internal_error(err)))
                        continue
                    if item is not None:
                        group.append(item)
                for batch in group_plans(plans):
                    group.append(WorkItem(bind(self._decide, batch), [m.key for m in batch.members]))
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
            error = RowError(message, ErrorKind.invalid_test_case.value)  # whatever the class raises
        for j, metric in enumerate(self._metrics_of(i)):
            for r in range(self.repeat):
                self._finish(_Job((i, j, r), tc, metric), unrun_row(metric, error=error))
        return None

    def _plan_job(
        self, job: _Job, use_cache: bool, want_key: bool, plans: list[tuple[_Job, SystemOnePlan]]
    ) -> WorkItem | None:
        """Finish ``job`` now (skipped, cached, failed plan) and return None, add its System One plan to ``plans``
        and return None, or return the item that measures it."""
        metric, tc = job.metric, job.test_case
        skip = self._skip_reason(metric, tc)
        if skip is not None:
            self._kept_skips.add(self._slot(job.key))
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
        except Exception as err:  # as the measure would have raised it (a missing field may skip the row)
            skip_on_missing = self.error_config.skip_on_missing_params
            error, skipped = failure_of(err, job.metric, skip_on_missing)
            self._failed(error)
            self._finish(
                job, build_row(job.metric, result_of(job.metric, error=error, skipped=skipped), None)
            )
            return None
        if plan is None:
            return WorkItem(bind(self._measure, job), [job])
        plans.append((job, plan))
        return None

    def _skip_reason(self, metric: BaseMetric, tc: TestCase) -> str | None:
        """:func:`~deepeval.evaluate.rows.not_applicable_reason`, one string object per (metric, kind of test case) shared by all its rows."""
        key = (id(metric), isinstance(tc, ConversationalTestCase))
        if key not in self._skip_reasons:
            reason = not_applicable_reason(metric, tc)
            self._skip_reasons[key] = None if reason is None else redact(reason)
        return self._skip_reasons[key]

    async def run(self) -> RunOutput:
        await run_pool(
            self._work(),
            max_concurrent=self.async_config.max_concurrent,
            run_async=self.async_config.run_async,
            throttle_value=self.async_config.throttle_value,
            on_error=self._item_failed,
        )
        return RunOutput(self._results(), self.cache_hits, self.batches, first_exception=self.first_exception)

    def _item_failed(self, item: WorkItem, err: Exception) -> None:
        """A bug in a metric hook or here: every row the item still owes errors, none is lost."""
        for job in item.jobs:
            if self.rows[self._slot(job.key)] is None:
                self._finish(job, failed_row(job.metric, internal_error(err)))

    # -- results -------------------------------------------------------------------------------------------------------
    def _results(self) -> list[TestResult]:
        out: list[TestResult] = []
        for i, tc in enumerate(self.test_cases):
            rows: list[MetricData] = []
            left_out: list[MetricData] = []
            for j, metric in enumerate(self._metrics_of(i)):
                row = self._row(i, j, metric)
                kept = not row.skipped or self._slot((i, j, 0)) in self._kept_skips
                (rows if kept else left_out).append(row)
            out.append(test_result(i, tc, rows, left_out))
        return out

    def _row(self, i: int, j: int, metric: BaseMetric) -> MetricData:
        reps = [self.rows[self._slot((i, j, r))] or self._missing(metric) for r in range(self.repeat)]
        return reps[0] if self.repeat == 1 else aggregate_repeats(reps)

    def _missing(self, metric: BaseMetric) -> MetricData:
        return interrupted_row(metric) if self._interrupted else missing_row(metric)

    def interrupted_output(self) -> RunOutput:
        """What a cancelled :meth:`run` finished: every row, the unfinished ones as
        :func:`~deepeval.evaluate.rows.interrupted_row` errors; ``finished`` / ``total`` count the measures (test
        case x metric x repetition) that did / should have."""
        self._interrupted = True
        done = sum(row is not None for row in self.rows)
        return RunOutput(self._results(), self.cache_hits, self.batches, finished=done, total=len(self.rows))


def _safe_key(metric: BaseMetric, tc: TestCase, repeat_index: int) -> str | None:
    """The cache key, or None (no caching for this row) when the metric's ``cache_config()`` fails."""
    try:
        return cache_key(metric, tc, repeat_index)
    except Exception:
        return None
