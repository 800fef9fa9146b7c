"""deepeval 4.3.1's tracing helpers, run with the user code of its docs: ``with trace(metrics=[...])`` inside
``evals_iterator`` (the trace's metrics scored on each golden), ``update_llm_span`` / ``update_retriever_span`` /
``update_agent_span`` / ``update_tool_span`` (only on their own span type), ``LlmSpanContext`` /
``AgentSpanContext`` and ``flush_traces`` / ``a_flush_traces``."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest

from deepeval.dataset import EvaluationDataset, Golden
from deepeval.evaluate import AsyncConfig, DisplayConfig
from deepeval.metrics import BaseMetric
from deepeval.tracing import (
    AgentSpanContext,
    LlmSpanContext,
    a_flush_traces,
    current_llm_context,
    flush_traces,
    observe,
    trace,
    trace_manager,
    update_agent_span,
    update_current_trace,
    update_llm_span,
    update_retriever_span,
    update_tool_span,
)


class Has(BaseMetric):
    """A custom metric as the docs write one: 1 when the output contains ``word``."""

    def __init__(self, word: str, threshold: float = 0.5) -> None:
        self.word = word
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = 1.0 if self.word in (test_case.actual_output or "") else 0.0
        self.reason = f"looked for {self.word!r} in {test_case.actual_output!r}"
        self.success = self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"Has {self.word}"


@observe(type="llm", model="gpt-x", cost_per_input_token=0.0)
def llm(question: str) -> str:
    update_llm_span(model="gpt-y", input_token_count=3, output_token_count=0)
    update_retriever_span(embedder="not-a-retriever")  # wrong span type: nothing happens
    return "answer ok to " + question


@observe(type="retriever", embedder="e1")
def retrieve(question: str) -> list[str]:
    update_retriever_span(top_k=3, chunk_size=256)
    return [f"about {question}"]


@observe(type="tool", description="looks things up")
def lookup(question: str) -> str:
    update_tool_span(description="a lookup tool")
    return "found"


@observe(type="agent", available_tools=["lookup"])
def agent(question: str) -> str:
    update_agent_span(agent_handoffs=["helper"])
    lookup(question)
    retrieve(question)
    return llm(question)


QUIET = DisplayConfig(print_results=False, show_indicator=False)


def test_trace_context_manager_scores_each_goldens_trace_in_evals_iterator() -> None:
    dataset = EvaluationDataset(goldens=[Golden(input="a"), Golden(input="b")])
    names = []
    iterator = dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=QUIET)
    with pytest.raises(StopIteration) as done:
        while True:
            golden = next(iterator)
            with trace(metrics=[Has("ok"), Has("b")], name="t-" + golden.input) as t:
                names.append(t.name)
                update_current_trace(output=agent(golden.input))
    result = done.value.value
    assert names == ["t-a", "t-b"]
    scores = [[(m.name, m.score) for m in r.metrics_data] for r in result.test_results]
    assert scores == [[("Has ok", 1.0), ("Has b", 0.0)], [("Has ok", 1.0), ("Has b", 1.0)]]
    assert [r.success for r in result.test_results] == [False, True]


def test_a_trace_block_is_one_trace_holding_every_observed_call() -> None:
    trace_manager.clear_traces()
    with trace(name="turn", thread_id="session-1", tags=["x"], metadata={"k": 1}) as t:
        agent("q")
        lookup("q")
    (kept,) = trace_manager.traces
    assert kept is t and (t.name, t.thread_id, t.tags, t.metadata) == ("turn", "session-1", ["x"], {"k": 1})
    assert [s.name for s in t.root_spans] == ["agent", "lookup"]
    assert t.status.value == "SUCCESS" and t.end_time is not None
    with pytest.raises(RuntimeError), trace(name="boom"):
        raise RuntimeError("app failed")
    assert trace_manager.traces[-1].status.value == "ERRORED"


def test_typed_span_updaters_set_only_their_own_span_type() -> None:
    trace_manager.clear_traces()
    agent("q")
    (root,) = trace_manager.traces[0].root_spans
    spans = {s.name: s for s in [root, *root.children]}
    a, tool, ret, model = spans["agent"], spans["lookup"], spans["retrieve"], spans["llm"]
    assert (a.available_tools, a.agent_handoffs) == (["lookup"], ["helper"])
    assert tool.description == "a lookup tool"
    assert (ret.embedder, ret.top_k, ret.chunk_size) == ("e1", 3, 256)
    assert (model.model, model.input_token_count, model.output_token_count) == ("gpt-y", 3, 0)
    assert model.cost_per_input_token == 0.0 and model.embedder is None  # 0 is a value; wrong type ignored
    update_llm_span(model="outside")  # outside an observed call: nothing to update, no error


def test_span_contexts_are_held_while_the_trace_block_runs() -> None:
    context = LlmSpanContext(metrics=[Has("ok")], expected_output="e")
    assert AgentSpanContext().metrics is None and LlmSpanContext().prompt is None
    with trace(llm_span_context=context):
        assert current_llm_context.get() is context
    assert current_llm_context.get() is None


def test_flush_traces_has_nothing_pending() -> None:
    assert flush_traces() is True and flush_traces(timeout=0.1) is True
    assert asyncio.run(a_flush_traces()) is True
    assert inspect.signature(flush_traces).parameters["timeout"].default == 30.0
