"""``@observe`` runs the function unchanged and records its spans locally; ``update_current_span`` /
``update_current_trace`` set fields of the running span and trace."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from deepeval.test_case import LLMTestCase
from deepeval.tracing import (
    TraceSpanStatus,
    observe,
    trace_manager,
    update_current_span,
    update_current_trace,
)


@pytest.fixture(autouse=True)
def _no_traces() -> Iterator[None]:
    trace_manager.clear_traces()
    yield
    trace_manager.clear_traces()


@observe(type="retriever", name="search")
def retrieve(query: str) -> list[str]:
    update_current_span(metadata={"k": 2})
    return [f"doc about {query}", "other doc"]


@observe(type="llm", model="gpt-4.1")
def generate(query: str, docs: list[str]) -> str:
    update_current_span(input=query)
    return f"answer from {len(docs)} docs"


@observe
def app(query: str) -> str:
    update_current_trace(name="rag", tags=["v1"], user_id="u-7", thread_id="t-1")
    return generate(query, retrieve(query))


def test_nested_calls_make_one_trace_with_the_span_tree() -> None:
    assert app("paris") == "answer from 2 docs"
    (trace,) = trace_manager.traces
    assert (trace.name, trace.tags, trace.user_id, trace.thread_id) == ("rag", ["v1"], "u-7", "t-1")
    assert trace.status is TraceSpanStatus.SUCCESS
    (root,) = trace.root_spans
    assert (root.name, root.type, root.input, root.output) == (
        "app",
        None,
        {"query": "paris"},
        "answer from 2 docs",
    )
    search, gen = root.children
    assert (search.name, search.type, search.metadata) == ("search", "retriever", {"k": 2})
    assert search.output == ["doc about paris", "other doc"] and search.parent_uuid == root.uuid
    assert (gen.name, gen.type, gen.input, gen.observe_kwargs) == (
        "generate",
        "llm",
        "paris",
        {"model": "gpt-4.1"},
    )
    assert all(s.trace_uuid == trace.uuid for s in (root, search, gen))
    assert root.end_time is not None and root.end_time >= gen.end_time >= gen.start_time  # type: ignore[operator]


def test_an_exception_passes_through_and_the_span_says_errored() -> None:
    @observe(name="boom")
    def fails() -> None:
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):
        fails()
    (trace,) = trace_manager.traces
    assert trace.status is TraceSpanStatus.ERRORED
    assert trace.root_spans[0].error == "bad input"


def test_async_functions_are_observed_and_concurrent_calls_stay_apart() -> None:
    @observe(type="tool")
    async def tool(x: int) -> int:
        await asyncio.sleep(0.01)
        update_current_span(output=x * 10)
        return x

    @observe
    async def agent(x: int) -> int:
        return await tool(x)

    async def main() -> list[int]:
        return list(await asyncio.gather(agent(1), agent(2)))

    assert asyncio.run(main()) == [1, 2]
    traces = trace_manager.get_all_traces_dict()
    assert len(traces) == 2
    outputs = sorted(t["root_spans"][0]["children"][0]["output"] for t in traces)
    assert outputs == [10, 20]  # each tool span got its own update
    assert traces[0]["status"] == "SUCCESS"


def test_update_outside_an_observed_call_does_nothing() -> None:
    update_current_span(output="x")
    update_current_trace(name="y")
    assert trace_manager.traces == []


def test_a_test_case_fills_the_span_fields() -> None:
    @observe
    def answer() -> str:
        update_current_span(
            test_case=LLMTestCase(
                input="q", actual_output="a", retrieval_context=["ctx"], expected_output="e"
            )
        )
        return "a"

    answer()
    span = trace_manager.traces[0].root_spans[0]
    assert (span.input, span.output, span.retrieval_context, span.expected_output) == ("q", "a", ["ctx"], "e")


def test_span_metrics_outside_evals_iterator_are_kept_and_a_warning_says_they_are_not_evaluated(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from deepeval.tracing import _metrics_warned

    _metrics_warned.clear()
    marker = object()
    with caplog.at_level(logging.WARNING, logger="deepeval.tracing"):

        @observe(metrics=[marker])
        def f() -> int:
            return 1

        assert f() == 1
    assert trace_manager.traces[0].root_spans[0].metrics == [marker]
    assert "finished outside EvaluationDataset.evals_iterator()" in caplog.text
    assert "not evaluated" in caplog.text


@pytest.mark.regression
def test_a_generator_function_is_observed_by_what_it_streams() -> None:
    """@observe on a streaming (generator) function: the span's output is the streamed text, not
    '<generator object ...>', and the span ends when the stream does (issue 42 item 9)."""

    @observe
    def stream(prompt: str) -> Iterator[str]:
        yield "Hello"
        yield ", world"

    assert trace_manager.traces == []  # nothing recorded until the stream ends
    assert list(stream("hi")) == ["Hello", ", world"]
    (trace,) = trace_manager.traces
    span = trace.root_spans[0]
    assert span.output == "Hello, world" and span.status == TraceSpanStatus.SUCCESS
    assert span.input == {"prompt": "hi"}


@pytest.mark.regression
def test_an_async_generator_and_an_early_stop_and_a_failing_stream() -> None:
    @observe
    async def a_stream() -> Any:
        for i in range(3):
            yield {"i": i}

    async def read() -> list[Any]:
        return [c async for c in a_stream()]

    assert asyncio.run(read()) == [{"i": 0}, {"i": 1}, {"i": 2}]
    assert trace_manager.traces[0].root_spans[0].output == [{"i": 0}, {"i": 1}, {"i": 2}]

    @observe
    def words() -> Iterator[str]:
        yield from ["a", "b", "c"]

    gen = words()
    assert next(gen) == "a"
    gen.close()  # the consumer stops early: what it read is the output
    assert trace_manager.traces[1].root_spans[0].output == "a"

    @observe
    def broken() -> Iterator[str]:
        yield "x"
        raise RuntimeError("stream broke")

    with pytest.raises(RuntimeError):
        list(broken())
    span = trace_manager.traces[2].root_spans[0]
    assert span.status == TraceSpanStatus.ERRORED and span.error == "stream broke"


@pytest.mark.regression
@pytest.mark.parametrize("update", [update_current_span, update_current_trace])
def test_a_dict_as_test_case_is_refused_where_it_is_passed(update: Any) -> None:
    """update_current_span(test_case=<dict>) was kept silently and failed later without naming the call (issue 42
    item 11)."""

    @observe
    def app() -> str:
        update(test_case={"input": "q", "actual_output": "a"})
        return "a"

    with pytest.raises(
        TypeError, match=r"test_case=\.\.\.\) takes an LLMTestCase .* not dict .*LLMTestCase\(\*\*"
    ):
        app()
