"""Component-level evaluation: ``EvaluationDataset.evals_iterator()`` and ``EvaluationDataset.evaluate(task)``.

The loop deepeval's docs teach::

    for golden in dataset.evals_iterator():                      # run_async=True (the default)
        task = asyncio.create_task(my_app(golden.input))          # an async app ...
        dataset.evaluate(task)
    for golden in dataset.evals_iterator(async_config=AsyncConfig(run_async=False)):
        my_app(golden.input)                                      # ... or a sync one, one golden at a time

1. The iterator yields each golden. While the loop body runs, the golden is current
   (:func:`deepeval.dataset.get_current_golden`) and every trace an ``@observe``-decorated call starts is tied to it
   (:func:`deepeval.tracing.bind_evaluation`). With ``run_async=True``, ``asyncio.create_task`` called from the loop
   body outside a running event loop puts the coroutine on the iterator's own loop (as deepeval does), and
   ``dataset.evaluate(task_or_coroutine)`` registers it; after the last golden those tasks run to completion, at
   most ``max_concurrent`` at once.
2. After the loop, test cases are built from the traces, as deepeval 4.3.1 builds them: one per golden (input: the
   golden's; output, expected output, contexts and tools: the trace's, set by ``update_current_trace``, the output
   defaulting to what the top ``@observe`` call returned), measured with the trace-level metrics
   (``evals_iterator(metrics=...)``, else ``update_current_trace(metrics=...)``); and one per span that has metrics
   (``@observe(metrics=...)`` / ``update_current_span(metrics=...)``), from the span's fields (set by
   ``update_current_span(test_case=...)``, else its arguments and return value), named by the span.
   Left early (see :func:`_left_early`): by Ctrl-C / SIGTERM, every golden is written unmeasured, the stop said; by
   an exception or ``break`` in the loop body, the goldens the app ran on are measured and published.
3. Every test case is measured in one run of the same runner as ``evaluate()`` (fresh metric copies, cache,
   ``max_concurrent``, errors, exports); the :class:`~deepeval.evaluate.results.EvaluationResult` (golden results,
   then their spans' results, spans grouped by type as deepeval lists them: base, agent, llm, retriever, tool) is
   the generator's return value (``StopIteration.value``, as deepeval), the latest run
   (``deepeval.test_run.global_test_run_manager.get_latest_test_run_data()``) and, with ``results_folder``, the
   JSON and HTML report. Traces stay in :data:`deepeval.tracing.trace_manager`; nothing is posted.

Deliberate differences from deepeval 4.3.1 (README, "Component-level evaluation"): each span is measured with its
own metric copy (deepeval's async path measures one shared metric object concurrently, so its span rows showed
another span's score); a span's result has ``success`` from its rows (deepeval: always False); nothing is dropped
silently: a span left with no rows under ``skip_on_missing_params`` keeps its result (its metrics in
``skipped_metrics``), a span with metrics but nothing to build a test case from, and trace-level metrics of a golden
that recorded no trace, give error rows; a span that raised gives rows that failed with that reason (as deepeval)
and its golden fails with it; golden names are ``test_case_<i>`` from 0 in both forms (deepeval's sync path counts
from 1) and show the app's output; metric errors raise after the whole run (an ``EvaluationError`` that is also the
first error's class, with every row in ``.result``) instead of at the next golden.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import inspect
import logging
import signal
import threading
import time
import uuid
import warnings
from collections.abc import Awaitable, Coroutine, Generator, Iterator, Sequence
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from typing import Any

from deepeval._concurrency import SignalSeen, signals_raise_here
from deepeval.contextvars import reset_current_golden, set_current_golden
from deepeval.errors import DeepEvalError, ErrorKind, NoMetricsError
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult, case_status
from deepeval.tracing import (
    BaseSpan,
    Trace,
    TraceSpanStatus,
    bind_evaluation,
    has_metrics,
    span_dict,
    unbind_evaluation,
)

logger = logging.getLogger(__name__)

#: how deepeval orders span results after each golden's: by span type, then in call order
SPAN_ORDER = ("base", "agent", "llm", "retriever", "tool")


class TraceCollector:
    """The finished traces of one ``evals_iterator()`` run, by golden index (thread-safe: traces finish in the
    loop body, in tasks on the iterator's loop, or in threads that copied the context)."""

    def __init__(self, n_goldens: int) -> None:
        self._lock = threading.Lock()
        self.traces: list[list[Trace]] = [[] for _ in range(n_goldens)]

    def add_trace(self, index: int, trace: Trace) -> None:
        with self._lock:
            self.traces[index].append(trace)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class TaskDispatch:
    """The async form's event loop: the coroutines of the loop body, run after the last golden, at most
    ``max_concurrent`` at once. Not running until :meth:`run`, so tasks created on it wait (and keep the context,
    golden included, of the line that created them)."""

    def __init__(self, max_concurrent: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.tasks: list[asyncio.Task[Any]] = []
        self.owner = threading.get_ident()
        self._limit = max_concurrent
        self._semaphore: asyncio.Semaphore | None = None
        self._coros: list[Coroutine[Any, Any, Any]] = []  # closed with the loop: a task cancelled before it
        # started never awaited its coroutine ("coroutine ... was never awaited" after Ctrl-C)

    def schedule(self, coro: Coroutine[Any, Any, Any], **kwargs: Any) -> asyncio.Task[Any]:
        task = self.loop.create_task(self._bounded(coro), **kwargs)
        self.tasks.append(task)
        self._coros.append(coro)
        return task

    async def _bounded(self, coro: Coroutine[Any, Any, Any]) -> Any:
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self._limit)
        async with self._semaphore:
            return await coro

    def run(self) -> list[BaseException]:
        """Run every task to completion; the exceptions they raised (the app's errors), in task order."""
        if not self.tasks:
            return []
        gathered = self._drive(asyncio.gather(*self.tasks, return_exceptions=True))
        return [r for r in gathered if isinstance(r, BaseException)]

    def _drive(self, work: Awaitable[Any]) -> Any:
        """``run_until_complete`` here, or on a helper thread when this thread already runs a loop (Jupyter)."""
        if not _loop_running():
            try:
                return self.loop.run_until_complete(work)
            except BaseException:  # Ctrl-C: stop the app's tasks before passing it on
                self._cancel_all()
                raise
        box: list[Any] = []
        failure: list[BaseException] = []

        def target() -> None:
            try:
                box.append(self.loop.run_until_complete(work))
            except BaseException as err:  # handed to the waiting thread
                failure.append(err)

        thread = threading.Thread(target=target, name="deepeval-evals-iterator", daemon=True)
        thread.start()
        thread.join()
        if failure:
            raise failure[0]
        return box[0]

    def _cancel_all(self) -> None:
        for task in self.tasks:
            task.cancel()

    def close(self) -> None:
        """Cancel what never ran (the loop was left early), shut async generators down, close the loop."""
        loop = self.loop
        if loop.is_closed():
            return
        try:
            pending = [t for t in self.tasks if not t.done()]
            if pending and not loop.is_running() and not _loop_running():
                for t in pending:
                    t.cancel()
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            if not _loop_running():
                loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
            for coro in self._coros:
                coro.close()  # a no-op for those that ran

    @contextlib.contextmanager
    def patched_create_task(self) -> Iterator[None]:
        """``asyncio.create_task`` called in the iterating thread with no running loop (where it would raise
        "no running event loop") schedules on this loop instead, as deepeval's iterator does; every other call is
        unchanged."""
        original = asyncio.create_task

        def create_task(coro: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self.owner and not _loop_running():
                return self.schedule(coro, **kwargs)
            return original(coro, **kwargs)

        asyncio.create_task = create_task
        try:
            yield
        finally:
            if asyncio.create_task is create_task:
                asyncio.create_task = original


@dataclass
class _Iteration:
    """One running ``evals_iterator()``: what ``dataset.evaluate(task)`` needs."""

    dispatch: TaskDispatch | None

    def register(self, obj: Any) -> None:
        """``dataset.evaluate(obj)`` (see :func:`register_task`)."""
        if isinstance(obj, asyncio.Future):
            self._register_future(obj)
        elif inspect.iscoroutine(obj):
            if self.dispatch is not None and not _loop_running():
                self.dispatch.schedule(obj)
            elif self.dispatch is None and not _loop_running():
                asyncio.run(obj)  # the sync form: the app runs now, one golden at a time
            else:
                obj.close()
                raise DeepEvalError(_RUNNING_LOOP_HELP)
        elif inspect.isawaitable(obj):
            self.register(_awaited(obj))
        else:
            raise TypeError(
                f"EvaluationDataset.evaluate() expects an asyncio Task, Future, coroutine or awaitable (the app "
                f"call of this golden), got {type(obj).__name__}"
            )

    def _register_future(self, future: asyncio.Future[Any]) -> None:
        if self.dispatch is not None and future.get_loop() is self.dispatch.loop:
            if isinstance(future, asyncio.Task) and future not in self.dispatch.tasks:
                self.dispatch.tasks.append(future)
            return
        if not future.done():
            raise DeepEvalError(_RUNNING_LOOP_HELP)


_RUNNING_LOOP_HELP = (
    "EvaluationDataset.evaluate(task): the task belongs to an event loop that is already running (code inside "
    "`async def`, or a notebook), which the iterator cannot wait for from its synchronous loop. Call the app "
    "synchronously with evals_iterator(async_config=AsyncConfig(run_async=False)), or `await` it in the loop body "
    "before the next golden."
)


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


_current: ContextVar[_Iteration | None] = ContextVar("deepeval_evals_iterator", default=None)


def register_task(obj: Any) -> None:
    """``EvaluationDataset.evaluate(task)``: hand the app call of the current golden to the running
    ``evals_iterator()`` (a Task made by ``asyncio.create_task`` in the loop body is already known to it; a
    coroutine is scheduled; with ``run_async=False`` a coroutine runs to completion now).

    Raises:
        DeepEvalError: outside an ``evals_iterator()`` loop, or a task of another, running event loop.
        TypeError: ``obj`` is not awaitable.
    """
    iteration = _current.get()
    if iteration is None:
        if inspect.iscoroutine(obj):
            obj.close()
        raise DeepEvalError(
            "EvaluationDataset.evaluate(task) hands the app call of one golden to the running evals_iterator(); "
            "call it inside `for golden in dataset.evals_iterator(): ...`, with the task of that golden."
        )
    iteration.register(obj)


# -- the loop ----------------------------------------------------------------------------------------------------
def iterate(
    goldens: Sequence[Any],
    metrics: Sequence[Any] | None = None,
    hyperparameters: dict[str, Any] | None = None,
    identifier: str | None = None,
    display_config: DisplayConfig | None = None,
    cache_config: CacheConfig | None = None,
    error_config: ErrorConfig | None = None,
    async_config: AsyncConfig | None = None,
) -> Generator[Any, None, EvaluationResult]:
    """The generator behind :meth:`EvaluationDataset.evals_iterator` (see the module docstring).

    Raises:
        ValueError: no goldens (when iteration starts, as deepeval).
        NoMetricsError: no metric anywhere: not in ``metrics``, on no span or trace of the run.
        TypeError: a metric that is not a ``BaseMetric``.
        EvaluationError: after the run, when rows errored and ``ignore_errors`` is off (also an instance of the
            first error's class when possible; ``.result`` holds every row).
    """
    from deepeval.evaluate.api import _check_output_folders, process_hyperparameters

    display_config = display_config or DisplayConfig()
    cache_config = cache_config or CacheConfig()
    error_config = error_config or ErrorConfig()
    async_config = async_config or AsyncConfig()
    if not goldens:
        raise ValueError("Unable to evaluate dataset with no goldens.")
    async_config.validate()
    display_config.display()
    _check_output_folders(display_config)
    trace_metrics = _checked_metrics(metrics, "evals_iterator(metrics=...)")
    hyper = process_hyperparameters(hyperparameters)
    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()

    collector = TraceCollector(len(goldens))
    dispatch = TaskDispatch(async_config.max_concurrent) if async_config.run_async else None
    iteration = _Iteration(dispatch)
    run = _Run(display_config, cache_config, error_config, async_config, identifier, hyper, started, t0)
    ran = 0  # goldens handed to the loop body
    with signals_raise_here() as seen:  # the app phase: a signal is said and the finished traces kept (below)
        try:
            with dispatch.patched_create_task() if dispatch is not None else contextlib.nullcontext():
                for index, golden in enumerate(goldens):
                    tokens = _enter(iteration, collector, index, golden)
                    ran = index + 1
                    try:
                        yield golden
                    finally:
                        _leave(tokens)
            if dispatch is not None:
                run.app_errors = [_describe(err) for err in dispatch.run()]
        except GeneratorExit:  # the loop was left early: Ctrl-C / SIGTERM, an exception in its body, a break
            _left_early(
                goldens,
                collector.traces,
                trace_metrics,
                run,
                ran,
                seen,
                dispatch,
                _task_cancelled(),
            )
            raise
        except BaseException:  # Ctrl-C / SIGTERM while the async form's app tasks ran
            if seen.signum:
                if dispatch is not None:
                    dispatch.close()  # the cancelled tasks end (their spans say so) before the report is made
                _left_early(goldens, collector.traces, trace_metrics, run, ran, seen)
            raise
        finally:
            if dispatch is not None:
                dispatch.close()
    return _evaluate(goldens, collector.traces, trace_metrics, run)


_Tokens = tuple[Token[Any], Token[Any], Token[Any]]


def _enter(iteration: _Iteration, collector: TraceCollector, index: int, golden: Any) -> _Tokens:
    return (_current.set(iteration), set_current_golden(golden), bind_evaluation(collector, index))


def _leave(tokens: _Tokens) -> None:
    current, golden, binding = tokens
    unbind_evaluation(binding)
    try:
        reset_current_golden(golden)
        _current.reset(current)
    except ValueError:  # the loop body switched contexts: clear them in this one
        set_current_golden(None)
        _current.set(None)


def _describe(err: BaseException) -> str:
    text = str(err).strip()
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _checked_metrics(metrics: Any, where: str) -> list[Any]:
    from deepeval.evaluate.api import metric_list

    hint = " (a metric collection name is a Confident AI feature, not evaluated here)"
    return [] if metrics is None else metric_list(metrics, where, hint=hint)


# -- building the test cases ---------------------------------------------------------------------------------------
@dataclass
class _Run:
    display_config: DisplayConfig
    cache_config: CacheConfig
    error_config: ErrorConfig
    async_config: AsyncConfig
    identifier: str | None
    hyperparameters: dict[str, str] | None
    started: str
    t0: float
    app_errors: list[str] = field(default_factory=list)


@dataclass
class _Unit:
    """One test result to build: a golden's (``span_type`` None) or a span's, its test case (None when it cannot be
    built) and its metrics. When the metrics cannot be measured, ``not_run`` says why: the error of every row (no
    test case can be built), or with ``errored`` (the span, or the app, raised) the reason of rows that failed
    without a score, as deepeval gives an errored span's metrics ``success=False`` and no score."""

    golden_index: int
    name: str
    span_type: str | None
    metrics: list[Any]
    test_case: Any = None
    not_run: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    errored: bool = False
    #: the rows' ``error_kind`` when ``not_run`` is their error
    not_run_kind: ErrorKind = ErrorKind.error


def _text(value: Any) -> str | None:
    return None if value is None else value if isinstance(value, str) else str(value)


def _span_type(span: BaseSpan) -> str:
    return span.type if span.type in SPAN_ORDER else "base"


def _walk(spans: Sequence[BaseSpan]) -> Iterator[BaseSpan]:
    """Spans in call order (depth first, parents before children)."""
    for span in spans:
        yield span
        yield from _walk(span.children)


def _trace_output(trace: Trace) -> Any:
    if trace.output is not None:
        return trace.output
    return trace.root_spans[0].output if trace.root_spans else None


def _root_error(trace: Trace) -> str | None:
    for span in trace.root_spans:
        if span.status is TraceSpanStatus.ERRORED:
            return f"{span.name!r} raised: {span.error}"
    return None


def _golden_unit(
    index: int, golden: Any, traces: list[Trace], trace_metrics: list[Any], golden_fields: bool = False
) -> _Unit:
    name = (
        golden.name
        if isinstance(getattr(golden, "name", None), str) and golden.name
        else f"test_case_{index}"
    )
    trace = traces[0] if traces else None
    metrics = trace_metrics or (
        _checked_metrics(trace.metrics, "update_current_trace(metrics=...)") if trace else []
    )
    fields: dict[str, Any] = {"input": golden.input, "metadata": golden.additional_metadata}
    unit = _Unit(index, name, None, metrics, fields=fields)
    if trace is None:
        unit.not_run = (
            "DeepEvalError: no trace was recorded for this golden: call an @observe-decorated function of your "
            "app in the body of `for golden in dataset.evals_iterator(): ...`"
        )
        return unit
    error = _root_error(trace)
    unit.errored = error is not None or trace.status is TraceSpanStatus.ERRORED
    recorded: dict[str, Any] = {
        "expected_output": trace.expected_output,
        "context": trace.context,
        "retrieval_context": trace.retrieval_context,
        "expected_tools": trace.expected_tools,
    }
    if (
        golden_fields
    ):  # assert_test(golden=...), as deepeval: what the trace did not set comes from the golden
        recorded = {k: v if v is not None else getattr(golden, k, None) for k, v in recorded.items()}
    fields.update(actual_output=_text(_trace_output(trace)), **recorded)
    if unit.errored:
        unit.not_run = f"not measured: the app raised ({error or 'trace errored'})"
        return unit
    _build_test_case(
        unit,
        trace,
        "the trace's fields",
        golden,
        input=_text(trace.input) if trace.input is not None else golden.input,
        actual_output=fields["actual_output"],
        metadata=golden.additional_metadata,
        comments=getattr(golden, "comments", None),
        name=name,
        **recorded,
    )
    return unit


#: the evaluation fields a golden supplies where its trace recorded none (as deepeval 4.3.1 builds the trace's case)
_GOLDEN_FALLBACKS = ("expected_output", "context", "retrieval_context", "expected_tools")


def _build_test_case(
    unit: _Unit, source: BaseSpan | Trace, what: str, golden: Any = None, **fields: Any
) -> None:
    """``unit.test_case`` from ``fields`` and the evaluation fields a span or trace records (for a trace, a field
    it left empty comes from the ``golden``: expected output, contexts, expected tools); fields that do not make a
    test case become the unit's ``not_run`` error (``invalid_test_case``), naming ``what``. When a metric of the
    unit reads the trace (``requires_trace``), the test case carries the span tree as ``_trace_dict``. A
    ``ConversationalTestCase`` given with ``update_current_span(test_case=...)`` is the unit's test case as given:
    its turns are the material (a single-turn metric on it is skipped, saying so, as in ``evaluate()``)."""
    from deepeval.test_case import ConversationalTestCase, LLMTestCase

    given_case = getattr(source, "llm_test_case", None)
    if isinstance(given_case, ConversationalTestCase):
        unit.test_case = given_case
        return

    recorded = {
        name: getattr(source, name)
        for name in ("expected_output", "context", "retrieval_context", "tools_called", "expected_tools")
    }
    if golden is not None:
        for name in _GOLDEN_FALLBACKS:
            recorded[name] = recorded[name] or getattr(golden, name, None)
    try:
        # a field given as None (the trace set none) leaves what the span / golden recorded
        given = {k: v for k, v in fields.items() if v is not None or k not in recorded}
        unit.test_case = LLMTestCase(**{**recorded, **given})
    except (TypeError, ValueError) as err:
        unit.not_run = f"{type(err).__name__}: {what} do not make a test case: {err}"
        unit.not_run_kind = ErrorKind.invalid_test_case
        return
    if any(getattr(m, "requires_trace", False) for m in unit.metrics):
        root = (
            source if isinstance(source, BaseSpan) else (source.root_spans[0] if source.root_spans else None)
        )
        unit.test_case._trace_dict = None if root is None else span_dict(root)


def _span_unit(index: int, span: BaseSpan) -> _Unit:
    metrics = _checked_metrics(span.metrics, f"the metrics of span {span.name!r}")
    fields = {
        "input": _text(span.input),
        "actual_output": _text(span.output),
        "expected_output": span.expected_output,
        "context": span.context,
        "retrieval_context": span.retrieval_context,
    }
    unit = _Unit(index, span.name, _span_type(span), metrics, fields=fields)
    if span.status is TraceSpanStatus.ERRORED:
        unit.errored = True
        unit.not_run = f"not measured: span {span.name!r} raised: {span.error}"
        return unit
    reads_trace = any(getattr(m, "requires_trace", False) for m in metrics)
    if span.llm_test_case is None and span.input in (None, "", {}, []) and not reads_trace:
        unit.not_run = (
            f"DeepEvalError: span {span.name!r} has metrics but no test case: call "
            "update_current_span(test_case=LLMTestCase(...)) inside it"
        )
        return unit
    _build_test_case(
        unit,
        span,
        f"the fields of span {span.name!r}",
        input=fields["input"]
        if fields["input"] is not None
        else "",  # a trace metric's span may take no input
        actual_output=fields["actual_output"],
        name=span.name,
    )
    return unit


def plan_units(
    goldens: Sequence[Any], traces: list[list[Trace]], trace_metrics: list[Any], golden_fields: bool = False
) -> list[_Unit]:
    """Every golden's unit, each followed by the units of its traces' spans that have metrics (by type, then in
    call order). ``golden_fields``: the golden's expected output, contexts and expected tools stand in for those
    its trace did not set (``assert_test(golden=...)``)."""
    units: list[_Unit] = []
    for index, golden in enumerate(goldens):
        units.append(_golden_unit(index, golden, traces[index], trace_metrics, golden_fields))
        spans = [
            _span_unit(index, span)
            for trace in traces[index]
            for span in _walk(trace.root_spans)
            if span.metrics
        ]
        spans.sort(key=lambda u: SPAN_ORDER.index(u.span_type or "base"))  # stable: call order within a type
        units.extend(spans)
    return units


def merged_trace(traces: list[Trace]) -> Trace:
    """The traces of one pytest test as the one trace deepeval records there (its plugin wraps the test in one
    span): every root span, each trace-level field as last set, every trace's metrics; ERRORED when one is."""
    if len(traces) == 1:
        return traces[0]
    first = traces[0]
    merged = Trace(uuid=first.uuid, start_time=first.start_time, end_time=traces[-1].end_time)
    merged.root_spans = [span for t in traces for span in t.root_spans]
    for name in (
        "name",
        "tags",
        "metadata",
        "thread_id",
        "user_id",
        "input",
        "output",
        "retrieval_context",
        "context",
        "expected_output",
        "tools_called",
        "expected_tools",
        "llm_test_case",
    ):
        for t in traces:
            if getattr(t, name) is not None:
                setattr(merged, name, getattr(t, name))
    metrics = [m for t in traces for m in (t.metrics or [])]
    merged.metrics = metrics or None
    errored = any(t.status is TraceSpanStatus.ERRORED for t in traces)
    merged.status = TraceSpanStatus.ERRORED if errored else TraceSpanStatus.SUCCESS
    return merged


async def a_measure_golden(
    golden: Any,
    traces: list[Trace],
    metrics: list[Any],
    async_config: AsyncConfig,
    display_config: DisplayConfig,
    cache_config: CacheConfig,
    error_config: ErrorConfig,
) -> tuple[list[TestResult], BaseException | None]:
    """``assert_test(golden=golden, metrics=...)``: the test results of one golden's traces (merged, see
    :func:`merged_trace`), built as ``evals_iterator`` builds them (the golden's, then its spans'), with ``metrics``
    added to the trace's own and the golden's expected output, contexts and expected tools where the trace set
    none (as deepeval); and the first exception a measure raised.

    Raises:
        NoMetricsError: no metric in ``metrics``, on the trace or on any of its spans.
    """
    from deepeval.evaluate.api import run_locally

    trace = merged_trace(traces)
    trace_metrics = [*(trace.metrics or []), *metrics]
    if not _any_metrics(trace_metrics, [[trace]]):
        raise NoMetricsError(
            "assert_test(golden=...) found no metric to measure: none in metrics=[...], on the trace "
            "(update_current_trace(metrics=...), trace(metrics=...)) or on an @observe(metrics=...) span"
        )
    units = plan_units([golden], [[trace]], trace_metrics, golden_fields=True)
    measured = [u for u in units if u.test_case is not None and u.metrics]
    out = await run_locally(
        [u.test_case for u in measured],
        [],
        async_config,
        display_config,
        cache_config,
        error_config,
        1,
        case_metrics=[u.metrics for u in measured],
    )
    by_unit = dict(zip(map(id, measured), out.test_results, strict=True))
    results = [_result(u, by_unit.get(id(u))) for u in units]
    _roll_up(results, units)
    return results, out.first_exception


def _any_metrics(trace_metrics: list[Any], traces: list[list[Trace]]) -> bool:
    return bool(trace_metrics) or any(has_metrics(t) for ts in traces for t in ts)


# -- measuring -------------------------------------------------------------------------------------------------------
def _evaluate(
    goldens: Sequence[Any], traces: list[list[Trace]], trace_metrics: list[Any], run: _Run
) -> EvaluationResult:
    if not _any_metrics(trace_metrics, traces):
        raise NoMetricsError(
            "evals_iterator() ran your app, but no metrics were declared: none in evals_iterator(metrics=...), "
            "on an @observe(metrics=...) span that ran, or through update_current_span / "
            "update_current_trace(metrics=...) (a metric_collection alone is a Confident AI name and is not "
            "evaluated; a span on a generator function runs only while the generator is iterated). A run with "
            "zero metric sources has nothing to measure."
        )
    return _measure(plan_units(goldens, traces, trace_metrics), run, {}, raise_errors=True)


def _measure(units: list[_Unit], run: _Run, extras: dict[str, Any], raise_errors: bool) -> EvaluationResult:
    """Measure the units that have a test case and metrics in one run of the runner; the result (every unit)
    published. ``raise_errors``: raise for errored rows as ``evaluate()`` does (after publishing)."""
    from deepeval._concurrency import run_sync
    from deepeval.evaluate.api import keep_interrupted, publish, raise_for_errors, run_locally

    measured = [u for u in units if u.test_case is not None and u.metrics]

    def on_interrupt(partial: Any) -> None:  # Ctrl-C / SIGTERM while measuring: keep what was finished
        keep_interrupted(
            lambda note: _component_result(units, measured, partial, run, {**extras, "interrupted": note}),
            partial,
            run.display_config,
        )

    out = run_sync(
        run_locally(
            [u.test_case for u in measured],
            [],
            run.async_config,
            run.display_config,
            run.cache_config,
            run.error_config,
            1,
            case_metrics=[u.metrics for u in measured],
            on_interrupt=on_interrupt,
        )
    )
    if run.app_errors:
        warnings.warn(
            f"evals_iterator: {len(run.app_errors)} app task(s) raised; first: {run.app_errors[0]} (their "
            "goldens' results say so)",
            RuntimeWarning,
            stacklevel=4,
        )
    result = _component_result(units, measured, out, run, extras)
    publish(result, run.display_config)
    if raise_errors:
        raise_for_errors(result, run.error_config, out.first_exception)
    return result


def _task_cancelled() -> bool:
    """Whether the asyncio task this runs in is being cancelled (Python 3.11+ can tell; earlier: False)."""
    import asyncio

    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop
        return False
    cancelling = getattr(task, "cancelling", None)
    return bool(task is not None and cancelling is not None and cancelling())


def _left_early(
    goldens: Sequence[Any],
    traces: list[list[Trace]],
    trace_metrics: list[Any],
    run: _Run,
    ran: int,
    seen: SignalSeen,
    dispatch: TaskDispatch | None = None,
    cancelled: bool = False,
) -> None:
    """``evals_iterator()`` did not get to its measuring phase; the goldens the app ran on (``ran``: the loop body
    was entered for the first ``ran`` goldens) are not lost, and the stop is said on stderr.

    * Ctrl-C / SIGTERM (``signum``) in the app phase: nothing is measured (the signal asks to stop, and measuring
      is the judge's paid part); the result holds every golden, the ones the app ran on with their traces' output
      and their rows as ``interrupted`` errors, and is written as an interrupted ``evaluate()`` run is
      (:func:`deepeval.evaluate.api.keep_interrupted`).
    * the loop was left otherwise (the app raised on a golden, a ``break``): the goldens before are measured, as
      deepeval 4.3.1 measures each golden in the loop, and the result (rows of the goldens never reached
      ``interrupted``) is published as a finished run's is, marked ``extras["interrupted"]``.
    * the async form (``dispatch``) left before its last golden otherwise: its app tasks never ran (the loop body
      may also have awaited the app itself); only said. Stopped by a signal or a cancellation, it is written as
      above (with the app awaited in the body under ``asyncio.run``, the stop was said without naming the signal
      and nothing was written; outside attack 7, L2).
    * the asyncio task running the loop was cancelled (``cancelled``: Ctrl-C in Jupyter cancels the cell's task, a
      timeout): a stop like a signal's, said as a cancellation (it was taken for an exception in the loop body,
      and every finished golden was measured after the Ctrl-C; outside attack 7).

    Never raises but for a signal while measuring (the loop's own exception must go on)."""
    import sys

    signum, n = seen.signum, len(goldens)
    stopped_run = bool(signum) or cancelled
    units = plan_units(goldens[:ran], traces[:ran], trace_metrics)
    if stopped_run:
        whole = sum(
            1 for ts in traces[:ran] if ts and not any(t.status is TraceSpanStatus.ERRORED for t in ts)
        )
        said = f"the app finished on {whole} of {n} goldens, none measured"
        never = "interrupted: the run was stopped before the app ran on this golden"
    else:
        said = f"the loop was left at golden {ran} of {n} (an exception or break in its body)"
        never = "interrupted: the loop was left before this golden (an exception or break in its body)"
    units += [_interrupted_unit(i, goldens[i], trace_metrics, never) for i in range(ran, n)]
    if dispatch is not None and dispatch.tasks:
        said += ", before the app tasks ran (the async form runs them after the last golden)"
    measurable = bool(ran) and any(u.metrics for u in units)
    if not measurable or (dispatch is not None and not stopped_run):
        how = "stopped" if not stopped_run else _stop_words(signum)
        print(f"deepeval: evals_iterator {how}: {said}; nothing to measure", file=sys.stderr)
        return
    if stopped_run:
        from deepeval.evaluate.api import keep_interrupted

        # the goldens whose app call the signal stopped: the last one entered (sync form), the tasks it cancelled
        stopped = {ran - 1} if not run.async_config.run_async else set()
        stopped |= {i for i, ts in enumerate(traces[:ran]) if any(_cancelled(t) for t in ts)}
        _mark_unmeasured(units, stopped, traces, never)
        empty = _NothingMeasured(finished=0, total=sum(len(u.metrics) for u in units))
        keep_interrupted(
            lambda note: _component_result(units, [], empty, run, {"interrupted": note}),
            empty,
            run.display_config,
            done=said,
        )
        return
    try:
        result = _measure(units, run, {"interrupted": said}, raise_errors=False)
    except BaseException as err:
        # Ctrl-C / SIGTERM while measuring: what was finished is written (keep_interrupted), the stop goes on;
        # Python may swallow it in the generator's close() it calls itself: SIGTERM then ends the process here
        if seen.signum or not isinstance(err, Exception):
            seen.end_process_if_terminated()
            raise
        # the loop's own exception goes on; say why the finished goldens have no report
        print(
            f"deepeval: evals_iterator stopped ({said}); measuring the goldens the app ran on failed: {err}",
            file=sys.stderr,
        )
        return
    where = result.extras.get("json_path") or result.extras.get("latest_path")
    measured = "measured the goldens the app ran on" + (
        f"; written to {where} (deepeval view)" if where else ""
    )
    print(f"deepeval: evals_iterator stopped: {said}; {measured}", file=sys.stderr)


def _stop_words(signum: int) -> str:
    """``stopped by SIGINT``, or ``cancelled (its asyncio task was cancelled)`` (no signal)."""
    from deepeval.evaluate.api import stopped_by

    return stopped_by(signal.Signals(signum).name if signum else None).removeprefix("run ")


@dataclass
class _NothingMeasured:
    """The runner's output of a run that measured nothing (``evals_iterator`` stopped in its app phase)."""

    finished: int
    total: int
    test_results: list[TestResult] = field(default_factory=list)
    cache_hits: int = 0
    system_one_batches: int = 0


def _interrupted_unit(index: int, golden: Any, trace_metrics: list[Any], why: str) -> _Unit:
    """The unit of a golden the app never ran on: its trace-level metrics' rows are ``interrupted`` errors."""
    unit = _golden_unit(index, golden, [], trace_metrics)
    unit.not_run, unit.not_run_kind = why, ErrorKind.interrupted
    return unit


def _mark_unmeasured(units: list[_Unit], stopped: set[int], traces: list[list[Trace]], never: str) -> None:
    """Ctrl-C / SIGTERM in the app phase: every row not measured says so; a golden whose app call the signal
    stopped (``stopped``) says that instead of 'the app raised KeyboardInterrupt', and one whose app never ran
    (its task never started) ``never``."""
    for unit in units:
        if unit.not_run is not None and unit.not_run_kind is ErrorKind.interrupted:
            continue
        why = None
        if unit.golden_index in stopped and unit.errored:
            why = "interrupted: the run was stopped while the app ran on this golden"
        elif unit.span_type is None and not traces[unit.golden_index]:
            why = never
        elif unit.test_case is not None and unit.metrics:
            why = "interrupted: the run was stopped in the app phase, before this row was measured"
        if why is not None:
            unit.errored, unit.test_case, unit.not_run, unit.not_run_kind = (
                False,
                None,
                why,
                ErrorKind.interrupted,
            )


def _cancelled(trace: Trace) -> bool:
    """The trace of an app task the stop cancelled (a span of it ended by ``CancelledError``)."""
    return any(span.error == "CancelledError" for span in _walk(trace.root_spans))


def _component_result(
    units: list[_Unit], measured: list[_Unit], out: Any, run: _Run, extras: dict[str, Any]
) -> EvaluationResult:
    """The run's result from the runner's output (finished or interrupted): one test result per unit."""
    by_unit = dict(zip(map(id, measured), out.test_results, strict=True))
    results = [_result(u, by_unit.get(id(u))) for u in units]
    _roll_up(results, units)
    return EvaluationResult(
        test_results=results,
        run_id=uuid.uuid4().hex,
        identifier=run.identifier,
        hyperparameters=run.hyperparameters,
        started_at=run.started,
        duration_s=time.perf_counter() - run.t0,
        cache_hits=out.cache_hits,
        system_one_batches=out.system_one_batches,
        extras={
            "component_level": True,
            **({"app_errors": run.app_errors} if run.app_errors else {}),
            **extras,
        },
    )


def _result(unit: _Unit, measured: TestResult | None) -> TestResult:
    """The unit's test result: the runner's (renamed and placed), or one whose rows carry ``not_run``."""
    from deepeval.evaluate.results import exportable_or_placeholder
    from deepeval.evaluate.rows import RowError, unrun_row

    if measured is None:
        rows: list[MetricData] = []
        if unit.not_run is not None:
            error = RowError(unit.not_run, unit.not_run_kind.value)
            rows = [
                _unmeasured(m, unit.not_run) if unit.errored else unrun_row(m, error=error)
                for m in unit.metrics
            ]
        f = unit.fields
        measured = TestResult(
            name=unit.name,
            success=case_status(rows) == "passed",
            metrics_data=rows,
            conversational=False,
            input=f.get("input"),
            actual_output=f.get("actual_output"),
            expected_output=f.get("expected_output"),
            context=exportable_or_placeholder(f.get("context"), "context"),
            retrieval_context=exportable_or_placeholder(
                _texts(f.get("retrieval_context")), "retrieval_context"
            ),
            metadata=exportable_or_placeholder(f.get("metadata"), "metadata"),
        )
    measured.name = unit.name
    measured.index = unit.golden_index
    measured.span_type = unit.span_type
    return measured


def _unmeasured(metric: Any, reason: str) -> MetricData:
    """The row of a metric whose span (or app) raised before it could be measured: failed, no score, the reason."""
    from deepeval.evaluate.rows import unrun_row

    row = unrun_row(metric, reason=reason)
    row.skipped, row.success = False, False
    return row


def _texts(items: Any) -> Any:
    if not isinstance(items, list):
        return items
    return [getattr(x, "context", x) for x in items]


def _roll_up(results: list[TestResult], units: list[_Unit]) -> None:
    """Each golden's ``trace_status``: :func:`case_status` over its own rows and its spans' rows; ``failed`` when
    the app raised and no row says worse; ``skipped`` when nothing at all was measured. ``success`` follows."""
    groups: dict[int, list[tuple[TestResult, _Unit]]] = {}
    for r, u in zip(results, units, strict=True):
        groups.setdefault(u.golden_index, []).append((r, u))
    for members in groups.values():
        golden, golden_unit = members[0]
        rows = [m for r, _ in members for m in r.metrics_data]
        measured_any = any(r.metrics_data or r.skipped_metrics for r, _ in members)
        status = case_status(rows) if measured_any else "skipped"
        if golden_unit.errored and status != "error":
            status = "failed"
        golden.trace_status = status
        golden.success = status == "passed"


__all__ = [
    "SPAN_ORDER",
    "TaskDispatch",
    "TraceCollector",
    "a_measure_golden",
    "iterate",
    "merged_trace",
    "plan_units",
    "register_task",
]
