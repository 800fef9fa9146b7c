"""``deepeval.tracing``: ``@observe``, ``update_current_span`` and ``update_current_trace`` for code instrumented as
deepeval's docs teach, recorded locally.

deepeval 4.3.1 without a Confident AI key runs an observed function unchanged, builds its spans and then drops the
trace ("Skipping trace posting"). Here the same code runs unchanged and each finished trace is kept in
:data:`trace_manager` (``trace_manager.traces``, the most recent :data:`MAX_TRACES`; ``get_all_traces_dict()``;
``clear_traces()``), so a test or script can read what ran: span names, types, inputs, outputs, errors, durations,
nesting, and what ``update_current_span`` / ``update_current_trace`` set. Nothing is sent anywhere: there is no
trace posting and no Confident AI dashboard.

Component-level evaluation: inside ``for golden in dataset.evals_iterator(): app(golden.input)`` every trace the
app records is tied to its golden, and after the loop the ``metrics=`` of each span (``@observe(metrics=[...])``
or ``update_current_span(metrics=...)``) are measured on the span's test case (``update_current_span(
test_case=...)``) and the trace's metrics (``evals_iterator(metrics=...)``, ``update_current_trace(metrics=...)``)
on the golden's (see :mod:`deepeval.evaluate.components`). Metrics on a trace recorded outside ``evals_iterator``
are kept on the span and not evaluated (deepeval sends those to Confident AI): the first such trace in a process
logs a warning. ``metric_collection=`` names a Confident AI collection; it is kept and never evaluated.

``observe`` wraps plain and ``async`` functions. A generator function's span covers creating the generator, not
iterating it.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, TypeVar, overload

logger = logging.getLogger(__name__)

#: finished traces kept by :data:`trace_manager` (older ones are dropped first)
MAX_TRACES = 1000

F = TypeVar("F", bound=Callable[..., Any])


class SpanType(Enum):
    AGENT = "agent"
    LLM = "llm"
    RETRIEVER = "retriever"
    TOOL = "tool"


class TraceSpanStatus(Enum):
    SUCCESS = "SUCCESS"
    ERRORED = "ERRORED"
    IN_PROGRESS = "IN_PROGRESS"


@dataclass
class BaseSpan:
    """One observed call. ``type`` is the ``observe(type=...)`` value (``None`` for a custom span), ``input`` the
    call's arguments by parameter name unless ``update_current_span(input=...)`` replaced them, ``output`` its
    return value unless replaced; ``error`` the exception text of a call that raised (status ``ERRORED``)."""

    uuid: str
    trace_uuid: str
    name: str
    start_time: float
    type: str | None = None
    parent_uuid: str | None = None
    status: TraceSpanStatus = TraceSpanStatus.IN_PROGRESS
    end_time: float | None = None
    children: list[BaseSpan] = field(default_factory=list)
    input: Any = None
    output: Any = None
    error: str | None = None
    metadata: dict[str, Any] | None = None
    retrieval_context: list[str] | None = None
    context: list[str] | None = None
    expected_output: str | None = None
    tools_called: list[Any] | None = None
    expected_tools: list[Any] | None = None
    llm_test_case: Any = None
    metrics: list[Any] | None = None
    metric_collection: str | None = None
    integration: str | None = None
    provider: str | None = None
    observe_kwargs: dict[str, Any] = field(default_factory=dict)
    # the fields of deepeval's typed spans (LlmSpan, RetrieverSpan, AgentSpan, ToolSpan), set from the same
    # ``observe(...)`` keywords and by update_llm_span / update_retriever_span / update_agent_span / update_tool_span
    model: str | None = None
    input_token_count: float | None = None
    output_token_count: float | None = None
    cost_per_input_token: float | None = None
    cost_per_output_token: float | None = None
    token_intervals: dict[float, str] | None = None
    prompt: Any = None
    embedder: str | None = None
    top_k: int | None = None
    chunk_size: int | None = None
    available_tools: list[str] | None = None
    agent_handoffs: list[str] | None = None
    description: str | None = None


@dataclass
class Trace:
    """One call tree: the spans with no observed parent (``root_spans``), and what ``update_current_trace`` set."""

    uuid: str
    start_time: float
    status: TraceSpanStatus = TraceSpanStatus.IN_PROGRESS
    end_time: float | None = None
    root_spans: list[BaseSpan] = field(default_factory=list)
    name: str | None = None
    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    thread_id: str | None = None
    user_id: str | None = None
    input: Any = None
    output: Any = None
    retrieval_context: list[str] | None = None
    context: list[str] | None = None
    expected_output: str | None = None
    tools_called: list[Any] | None = None
    expected_tools: list[Any] | None = None
    llm_test_case: Any = None
    metrics: list[Any] | None = None
    metric_collection: str | None = None
    test_case_id: str | None = None
    test_run_id: str | None = None
    turn_id: str | None = None


current_span_context: contextvars.ContextVar[BaseSpan | None] = contextvars.ContextVar(
    "deepeval_current_span", default=None
)
current_trace_context: contextvars.ContextVar[Trace | None] = contextvars.ContextVar(
    "deepeval_current_trace", default=None
)
_metrics_warned = threading.Event()
#: the evals_iterator() iteration this code runs in: (its trace collector, the golden's index); set per golden
_evaluation: contextvars.ContextVar[tuple[Any, int] | None] = contextvars.ContextVar(
    "deepeval_evaluation", default=None
)


def bind_evaluation(collector: Any, index: int) -> contextvars.Token[tuple[Any, int] | None]:
    """Tie the traces started from now on in this context to golden ``index`` of ``collector`` (which gets each
    finished one through ``collector.add_trace(index, trace)``); returns the token for :func:`unbind_evaluation`."""
    return _evaluation.set((collector, index))


def unbind_evaluation(token: contextvars.Token[tuple[Any, int] | None]) -> None:
    try:
        _evaluation.reset(token)
    except ValueError:  # reset from another context (the loop body switched contexts): clear it here
        _evaluation.set(None)


class TraceManager:
    """The finished traces of this process (local only; see module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._traces: deque[Trace] = deque(maxlen=MAX_TRACES)

    @property
    def traces(self) -> list[Trace]:
        """Finished traces, oldest first."""
        with self._lock:
            return list(self._traces)

    def get_all_traces(self) -> list[Trace]:
        return self.traces

    def get_all_traces_dict(self) -> list[dict[str, Any]]:
        """The finished traces as plain dicts (enum members as their values)."""
        return [_plain(asdict(t)) for t in self.traces]

    def create_nested_spans_dict(self, span: BaseSpan) -> dict[str, Any]:
        """deepeval's name for :func:`span_dict`."""
        return span_dict(span)

    def clear_traces(self) -> None:
        with self._lock:
            self._traces.clear()

    def _finish(self, trace: Trace) -> None:
        with self._lock:
            self._traces.append(trace)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


trace_manager = TraceManager()

#: span fields that enter :func:`span_dict` (besides ``name``, ``type`` and ``children``), when not None
_SPAN_DICT_FIELDS = (
    "input",
    "output",
    "error",
    "expected_output",
    "context",
    "retrieval_context",
    "tools_called",
    "expected_tools",
    "integration",
    "provider",
)


def span_dict(span: BaseSpan) -> dict[str, Any]:
    """The span and everything under it as deepeval 4.3.1's nested span dict (what its trace metrics read as
    ``test_case._trace_dict``): ``name``, ``type`` (``"agent"``, ``"llm"``, ``"retriever"``, ``"tool"``, else
    ``"base"``), the recorded fields that are not None (input, output, error, expected output, contexts, tools
    called and expected, and the ``model`` an ``@observe(type="llm", model=...)`` names), and ``children`` in call
    order. Ids, times, status, metadata and metrics are left out, as there. Built iteratively (no recursion limit)."""
    root = _span_entry(span)
    stack = [(span, root)]
    while stack:
        current, entry = stack.pop()
        for child in current.children:
            child_entry = _span_entry(child)
            entry["children"].append(child_entry)
            stack.append((child, child_entry))
    return root


def _span_entry(span: BaseSpan) -> dict[str, Any]:
    kind = span.type if span.type in {t.value for t in SpanType} else "base"
    entry: dict[str, Any] = {"name": span.name, "type": kind}
    for name in _SPAN_DICT_FIELDS:
        value = getattr(span, name)
        if value is not None:
            entry[name] = value
    model = span.observe_kwargs.get("model")
    if model is not None:
        entry["model"] = model
    entry["children"] = []
    return entry


def _warn_metrics() -> None:
    if not _metrics_warned.is_set():
        _metrics_warned.set()
        logger.warning(
            "deepeval.tracing: a trace with metrics finished outside EvaluationDataset.evals_iterator(); its "
            "metrics are kept on the spans and not evaluated (run the app inside `for golden in "
            "dataset.evals_iterator(): ...` to evaluate them)"
        )


def has_metrics(trace: Trace) -> bool:
    """True when the trace or any of its spans has ``metrics`` (a ``metric_collection`` alone does not count)."""
    if trace.metrics:
        return True
    stack = list(trace.root_spans)
    while stack:
        span = stack.pop()
        if span.metrics:
            return True
        stack.extend(span.children)
    return False


def _arguments(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {"args": list(args), "kwargs": dict(kwargs)}
    bound.apply_defaults()  # as deepeval records them: every parameter, defaults included
    params = dict(bound.arguments)
    params.pop("self", None)
    return params


#: the ``observe(...)`` keywords deepeval keeps on each span type (its Observer's ``observe_kwargs``)
_TYPED_FIELDS: dict[str, tuple[str, ...]] = {
    "llm": ("model", "provider", "cost_per_input_token", "cost_per_output_token"),
    "retriever": ("embedder",),
    "agent": ("available_tools", "agent_handoffs"),
    "tool": ("description",),
}


class _Observation:
    """Opening and closing one span (and its trace, for a root span)."""

    def __init__(
        self, name: str, span_type: str | None, metrics: Any, collection: str | None, extra: Any
    ) -> None:
        parent = current_span_context.get()
        trace = current_trace_context.get()
        self.owns_trace = trace is None
        self.evaluation: tuple[Any, int] | None = None
        if trace is None:
            trace = Trace(uuid=str(uuid.uuid4()), start_time=time.perf_counter())
            self.evaluation = _evaluation.get()
        self.trace = trace
        self.span = BaseSpan(
            uuid=str(uuid.uuid4()),
            trace_uuid=trace.uuid,
            name=name,
            type=span_type,
            start_time=time.perf_counter(),
            parent_uuid=None if parent is None else parent.uuid,
            metrics=metrics,
            metric_collection=collection,
            observe_kwargs=dict(extra),
        )
        for key in _TYPED_FIELDS.get(span_type or "", ()):
            if extra.get(key) is not None:
                setattr(self.span, key, extra[key])
        (trace.root_spans if parent is None else parent.children).append(self.span)
        self._tokens: tuple[Any, Any] | None = (
            current_span_context.set(self.span),
            current_trace_context.set(trace),
        )

    def close(self, result: Any, error: BaseException | None) -> None:
        self.leave()
        self.finish(result, error)

    def leave(self) -> None:
        """The span stops being the current one (its function returned); :meth:`finish` may come later."""
        if self._tokens is not None:
            current_span_context.reset(self._tokens[0])
            current_trace_context.reset(self._tokens[1])
            self._tokens = None

    def finish(self, result: Any, error: BaseException | None) -> None:
        span, trace = self.span, self.trace
        span.end_time = time.perf_counter()
        if error is not None:
            span.status = TraceSpanStatus.ERRORED
            span.error = str(error) or type(error).__name__
        else:
            span.status = TraceSpanStatus.SUCCESS
            if span.output is None:
                span.output = result
        if self.owns_trace:
            _finish_trace(trace, self.evaluation, span.end_time, span.status)


def _finish_trace(
    trace: Trace, evaluation: tuple[Any, int] | None, end_time: float, status: TraceSpanStatus
) -> None:
    """A trace is over: kept by :data:`trace_manager`, handed to its ``evals_iterator()`` golden or to the running
    pytest test (for ``assert_test(golden=...)``), else warned about when it has metrics nothing will measure."""
    trace.end_time = end_time
    trace.status = status
    trace_manager._finish(trace)
    scope = _test_scope.get()
    if evaluation is not None:
        collector, index = evaluation
        collector.add_trace(index, trace)
    elif scope is not None:
        scope.append(trace)
    elif has_metrics(trace):
        _warn_metrics()


#: the traces finished during the running pytest test (set by our pytest plugin around each test call), read by
#: ``assert_test(golden=...)``
_test_scope: contextvars.ContextVar[list[Trace] | None] = contextvars.ContextVar(
    "deepeval_test_scope", default=None
)


def open_test_scope() -> contextvars.Token[list[Trace] | None]:
    """Collect the traces that finish from now on in this context (until :func:`close_test_scope`) for
    :func:`take_test_traces`; our pytest plugin opens one around each test call."""
    return _test_scope.set([])


def close_test_scope(token: contextvars.Token[list[Trace] | None]) -> None:
    try:
        _test_scope.reset(token)
    except ValueError:  # reset from another context
        _test_scope.set(None)


def take_test_traces() -> list[Trace] | None:
    """The traces finished in the open test scope since the last call (they are handed out once); None when no
    scope is open."""
    scope = _test_scope.get()
    if scope is None:
        return None
    taken = list(scope)
    scope.clear()
    return taken


def _stream_output(chunks: list[Any]) -> Any:
    """A streamed reply's output: the text when every chunk is text (a token stream), else the list of chunks."""
    return "".join(chunks) if all(isinstance(c, str) for c in chunks) else chunks


def _streamed(gen: Any, obs: _Observation) -> Any:
    """Yields what ``gen`` yields; the span ends when the stream does, its output what was streamed (not the
    ``<generator object ...>`` the function returned). Spans opened inside the body are not nested under it."""
    chunks: list[Any] = []
    try:
        for chunk in gen:
            chunks.append(chunk)
            yield chunk
    except GeneratorExit:  # the consumer stopped early: what it read is the output
        obs.finish(_stream_output(chunks), None)
        raise
    except BaseException as err:
        obs.finish(None, err)
        raise
    obs.finish(_stream_output(chunks), None)


async def _a_streamed(gen: Any, obs: _Observation) -> Any:
    """:func:`_streamed` for an async generator."""
    chunks: list[Any] = []
    try:
        async for chunk in gen:
            chunks.append(chunk)
            yield chunk
    except GeneratorExit:  # the consumer stopped early: what it read is the output
        obs.finish(_stream_output(chunks), None)
        raise
    except BaseException as err:
        obs.finish(None, err)
        raise
    obs.finish(_stream_output(chunks), None)


@overload
def observe(_func: F, /) -> F: ...
@overload
def observe(
    _func: None = None,
    /,
    *,
    metrics: list[Any] | None = None,
    metric_collection: str | None = None,
    type: str | None = None,
    **observe_kwargs: Any,
) -> Callable[[F], F]: ...
def observe(
    _func: F | None = None,
    /,
    *,
    metrics: list[Any] | None = None,
    metric_collection: str | None = None,
    type: str | None = None,
    **observe_kwargs: Any,
) -> F | Callable[[F], F]:
    """Record each call of the decorated function as a span (``@observe`` or ``@observe(type="llm", name=...)``):
    the function runs exactly as before, its return value and exceptions pass through unchanged.

    ``name`` (in ``observe_kwargs``) names the span, else the function's ``__name__``; other keywords (deepeval's
    ``model=``, ``embedder=``...) are kept in ``span.observe_kwargs``.
    """

    def decorate(func: F) -> F:
        name = str(observe_kwargs.get("name") or func.__name__)
        span_type = type.value if isinstance(type, SpanType) else type

        def opened(args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Observation:
            obs = _Observation(name, span_type, metrics, metric_collection, observe_kwargs)
            obs.span.input = _arguments(func, args, kwargs)
            return obs

        if inspect.isgeneratorfunction(func) or inspect.isasyncgenfunction(func):

            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                obs = opened(args, kwargs)
                try:
                    gen = func(*args, **kwargs)  # runs none of the body yet
                except BaseException as err:
                    obs.close(None, err)
                    raise
                obs.leave()
                return _streamed(gen, obs) if inspect.isgenerator(gen) else _a_streamed(gen, obs)

            return gen_wrapper  # type: ignore[return-value]

        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def a_wrapper(*args: Any, **kwargs: Any) -> Any:
                obs = opened(args, kwargs)
                try:
                    result = await func(*args, **kwargs)
                except BaseException as err:
                    obs.close(None, err)
                    raise
                obs.close(result, None)
                return result

            return a_wrapper  # type: ignore[return-value]

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            obs = opened(args, kwargs)
            try:
                result = func(*args, **kwargs)
            except BaseException as err:
                obs.close(None, err)
                raise
            obs.close(result, None)
            return result

        return wrapper  # type: ignore[return-value]

    if _func is not None:
        return decorate(_func)
    return decorate


_CASE_FIELDS = ("input", "actual_output", "expected_output", "retrieval_context", "context", "tools_called")


def _apply(target: BaseSpan | Trace, test_case: Any, values: dict[str, Any], where: str) -> None:
    if test_case is not None:
        from deepeval.test_case import ConversationalTestCase, LLMTestCase

        if not isinstance(test_case, (LLMTestCase, ConversationalTestCase)):
            # refused here, where the user can see which call it was (a dict was kept and failed later, unnamed)
            kind = type(test_case).__name__
            hint = " (build one: LLMTestCase(**your_dict))" if isinstance(test_case, dict) else ""
            raise TypeError(
                f"{where}(test_case=...) takes an LLMTestCase or ConversationalTestCase, not {kind}{hint}"
            )
        target.llm_test_case = test_case
        for name in _CASE_FIELDS:
            value = getattr(test_case, name, None)
            setattr(target, "output" if name == "actual_output" else name, value)
        target.expected_tools = getattr(test_case, "expected_tools", None)
    for key, value in values.items():
        if value is not None:
            setattr(target, key, value)


def update_current_span(
    input: Any = None,
    output: Any = None,
    retrieval_context: list[str] | None = None,
    context: list[str] | None = None,
    expected_output: str | None = None,
    tools_called: list[Any] | None = None,
    expected_tools: list[Any] | None = None,
    metadata: dict[str, Any] | None = None,
    name: str | None = None,
    integration: str | None = None,
    provider: str | None = None,
    test_case: Any = None,
    metric_collection: str | None = None,
    metrics: list[Any] | None = None,
) -> None:
    """Set fields of the span being observed (outside an observed call: nothing to update, as deepeval). A
    ``test_case`` sets input, output, expected output, contexts and tools from it; the other arguments that are
    not None win over it."""
    span = current_span_context.get()
    if span is None:
        return
    values = {k: v for k, v in locals().items() if k not in {"span", "test_case"}}
    _apply(span, test_case, values, "update_current_span")


def update_current_trace(
    name: str | None = None,
    tags: list[str] | None = None,
    metadata: dict[str, Any] | None = None,
    thread_id: str | None = None,
    user_id: str | None = None,
    input: Any = None,
    output: Any = None,
    retrieval_context: list[str] | None = None,
    context: list[str] | None = None,
    expected_output: str | None = None,
    tools_called: list[Any] | None = None,
    expected_tools: list[Any] | None = None,
    test_case: Any = None,
    confident_api_key: str | None = None,
    test_case_id: str | None = None,
    test_run_id: str | None = None,
    turn_id: str | None = None,
    metric_collection: str | None = None,
    metrics: list[Any] | None = None,
) -> None:
    """Set fields of the current trace (outside an observed call: nothing to update). ``confident_api_key`` is
    accepted and not kept (nothing is posted)."""
    trace = current_trace_context.get()
    if trace is None:
        return
    values = {k: v for k, v in locals().items() if k not in {"trace", "test_case", "confident_api_key"}}
    _apply(trace, test_case, values, "update_current_trace")


def _typed_span(span_type: str) -> BaseSpan | None:
    span = current_span_context.get()
    return span if span is not None and span.type == span_type else None


def update_llm_span(
    model: str | None = None,
    input_token_count: float | None = None,
    output_token_count: float | None = None,
    cost_per_input_token: float | None = None,
    cost_per_output_token: float | None = None,
    token_intervals: dict[float, str] | None = None,
    prompt: Any = None,
) -> None:
    """Set the LLM fields of the current span when it is an ``observe(type="llm")`` span (else nothing, as
    deepeval): the model, token counts and per-token costs (0 counts as a value), token intervals, the prompt."""
    span = _typed_span("llm")
    if span is None:
        return
    for key, value in (
        ("input_token_count", input_token_count),
        ("output_token_count", output_token_count),
        ("cost_per_input_token", cost_per_input_token),
        ("cost_per_output_token", cost_per_output_token),
    ):
        if value is not None:
            setattr(span, key, value)
    if model:
        span.model = model
    if token_intervals:
        span.token_intervals = token_intervals
    if prompt:
        span.prompt = prompt


def update_retriever_span(
    embedder: str | None = None, top_k: int | None = None, chunk_size: int | None = None
) -> None:
    """Set the retriever fields of the current span when it is an ``observe(type="retriever")`` span."""
    span = _typed_span("retriever")
    if span is None:
        return
    if embedder:
        span.embedder = embedder
    if top_k:
        span.top_k = top_k
    if chunk_size:
        span.chunk_size = chunk_size


def update_agent_span(
    available_tools: list[str] | None = None, agent_handoffs: list[str] | None = None
) -> None:
    """Set the agent fields of the current span when it is an ``observe(type="agent")`` span."""
    span = _typed_span("agent")
    if span is None:
        return
    if available_tools is not None:
        span.available_tools = available_tools
    if agent_handoffs is not None:
        span.agent_handoffs = agent_handoffs


def update_tool_span(description: str | None = None) -> None:
    """Set the description of the current span when it is an ``observe(type="tool")`` span."""
    span = _typed_span("tool")
    if span is not None and description is not None:
        span.description = description


@dataclass
class LlmSpanContext:
    """What ``trace(llm_span_context=...)`` hands to the LLM spans that deepeval's framework integrations create
    (its OpenAI / Anthropic / LlamaIndex patches). Kept in :data:`current_llm_context` while the ``trace`` block
    runs; this package has none of those integrations, so nothing reads it here."""

    prompt: Any = None
    metrics: list[Any] | None = None
    metric_collection: str | None = None
    expected_output: str | None = None
    expected_tools: list[Any] | None = None
    context: list[str] | None = None
    retrieval_context: list[str] | None = None


@dataclass
class AgentSpanContext:
    """:class:`LlmSpanContext` for the agent spans of deepeval's framework integrations."""

    metrics: list[Any] | None = None
    metric_collection: str | None = None
    expected_output: str | None = None
    expected_tools: list[Any] | None = None
    context: list[str] | None = None
    retrieval_context: list[str] | None = None


current_llm_context: contextvars.ContextVar[LlmSpanContext | None] = contextvars.ContextVar(
    "deepeval_current_llm_context", default=None
)
current_agent_context: contextvars.ContextVar[AgentSpanContext | None] = contextvars.ContextVar(
    "deepeval_current_agent_context", default=None
)


@contextlib.contextmanager
def trace(
    llm_span_context: LlmSpanContext | None = None,
    agent_span_context: AgentSpanContext | None = None,
    name: str | None = None,
    tags: list[str] | None = None,
    metadata: dict[str, Any] | None = None,
    thread_id: str | None = None,
    user_id: str | None = None,
    input: Any = None,
    output: Any = None,
    retrieval_context: list[str] | None = None,
    context: list[str] | None = None,
    expected_output: str | None = None,
    tools_called: list[Any] | None = None,
    expected_tools: list[Any] | None = None,
    metrics: list[Any] | None = None,
    metric_collection: str | None = None,
) -> Iterator[Trace]:
    """``with trace(metrics=[...], name=..., ...) as t:``: one trace around the block (or the trace already
    running, when the block is inside an observed call), with these fields set as ``update_current_trace`` sets
    them; every ``@observe`` call in the block is a span of it. ``metrics`` are the trace's metrics: inside
    ``for golden in dataset.evals_iterator(): ...`` they are measured on the golden's test case, and in a pytest
    test ``assert_test(golden=golden)`` measures them.

    The block's trace ends with the block (``SUCCESS``; ``ERRORED`` when an exception leaves it, which passes on
    unchanged) and is kept by :data:`trace_manager` like any other.
    """
    current = current_trace_context.get()
    owns = current is None
    evaluation: tuple[Any, int] | None = None
    if current is None:
        current = Trace(uuid=str(uuid.uuid4()), start_time=time.perf_counter())
        evaluation = _evaluation.get()
    if metrics:
        current.metrics = metrics
    if metric_collection:
        current.metric_collection = metric_collection
    token = current_trace_context.set(current)
    update_current_trace(
        name=name,
        tags=tags,
        metadata=metadata,
        thread_id=thread_id,
        user_id=user_id,
        input=input,
        output=output,
        retrieval_context=retrieval_context,
        context=context,
        expected_output=expected_output,
        tools_called=tools_called,
        expected_tools=expected_tools,
    )
    llm_token = current_llm_context.set(llm_span_context) if llm_span_context else None
    agent_token = current_agent_context.set(agent_span_context) if agent_span_context else None
    status = TraceSpanStatus.SUCCESS
    try:
        yield current
    except BaseException:
        status = TraceSpanStatus.ERRORED
        raise
    finally:
        if agent_token is not None:
            current_agent_context.reset(agent_token)
        if llm_token is not None:
            current_llm_context.reset(llm_token)
        current_trace_context.reset(token)
        if owns:
            _finish_trace(current, evaluation, time.perf_counter(), status)


#: deepeval's default wait of :func:`flush_traces`, in seconds
DEFAULT_TRACE_FLUSH_TIMEOUT = 30.0


def flush_traces(timeout: float = DEFAULT_TRACE_FLUSH_TIMEOUT) -> bool:
    """deepeval waits here until its background worker has posted every trace to Confident AI. Nothing is posted
    here (traces stay in :data:`trace_manager`), so nothing is pending: returns True at once."""
    return True


async def a_flush_traces(timeout: float = DEFAULT_TRACE_FLUSH_TIMEOUT) -> bool:
    """Async :func:`flush_traces`: True at once."""
    return True


__all__ = [
    "DEFAULT_TRACE_FLUSH_TIMEOUT",
    "MAX_TRACES",
    "AgentSpanContext",
    "BaseSpan",
    "LlmSpanContext",
    "SpanType",
    "Trace",
    "TraceManager",
    "TraceSpanStatus",
    "a_flush_traces",
    "bind_evaluation",
    "close_test_scope",
    "current_agent_context",
    "current_llm_context",
    "current_span_context",
    "current_trace_context",
    "flush_traces",
    "has_metrics",
    "observe",
    "open_test_scope",
    "span_dict",
    "take_test_traces",
    "trace",
    "trace_manager",
    "unbind_evaluation",
    "update_agent_span",
    "update_current_span",
    "update_current_trace",
    "update_llm_span",
    "update_retriever_span",
    "update_tool_span",
]
