"""Agent metrics end to end: an agent traced with ``@observe`` (agent, LLM and tool spans, a nested agent, a tool
that raises) evaluated through ``EvaluationDataset.evals_iterator``, one row per span x metric, nothing dropped."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from deepeval.dataset import EvaluationDataset, Golden
from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.metrics import AgentLoopDetectionMetric, TaskCompletionMetric, ToolCorrectnessMetric
from deepeval.test_case import ToolCall
from deepeval.testing.scripted import ScriptedLLM
from deepeval.tracing import observe, span_dict, trace_manager, update_current_span, update_current_trace

QUIET = DisplayConfig(show_indicator=False, print_results=False)


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no connection expected")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    trace_manager.clear_traces()
    yield
    trace_manager.clear_traces()


@observe(type="tool")
def search(query: str) -> str:
    return f"results for {query}"


@observe(type="tool", metrics=[ToolCorrectnessMetric()])
def broken_tool(query: str) -> str:
    raise RuntimeError("tool backend down")


@observe(type="llm", model="scripted-model")
def think(prompt: str) -> str:
    return f"I will look up {prompt}"


@observe(type="agent", name="researcher", metrics=[AgentLoopDetectionMetric()])
def researcher(topic: str) -> str:
    think(topic)
    for _ in range(3):  # the same call three times: repetition 0.5
        search(topic)
    return f"notes on {topic}"


@observe(type="agent", name="planner", metrics=[ToolCorrectnessMetric()])
def planner(question: str) -> str:
    think(question)
    search(question)
    try:
        broken_tool(question)
    except RuntimeError:
        pass
    notes = researcher(question)
    called = [ToolCall(name="search", input_parameters={"query": question}), ToolCall(name="broken_tool")]
    update_current_span(
        tools_called=called, expected_tools=[ToolCall(name="search"), ToolCall(name="calculator")]
    )
    update_current_trace(tools_called=called)
    return notes


def test_agent_run_rows_per_span_and_metric() -> None:
    goldens = [
        Golden(input="weather in Paris", expected_tools=[ToolCall(name="search")]),
        Golden(
            input="flights to Rome", expected_tools=[ToolCall(name="search"), ToolCall(name="broken_tool")]
        ),
    ]
    dataset = EvaluationDataset(goldens=goldens)
    iterator = dataset.evals_iterator(
        metrics=[ToolCorrectnessMetric(), AgentLoopDetectionMetric()],
        async_config=AsyncConfig(run_async=False),
        display_config=QUIET,
        error_config=ErrorConfig(ignore_errors=True),
    )
    try:
        while True:
            golden = next(iterator)
            planner(golden.input)
    except StopIteration as stop:
        result = stop.value
    names = [(r.name, r.span_type, [m.name for m in r.metrics_data]) for r in result.test_results]
    assert names == [
        ("test_case_0", None, ["Tool Correctness", "Agent Loop Detection"]),
        ("planner", "agent", ["Tool Correctness"]),
        ("researcher", "agent", ["Agent Loop Detection"]),
        ("broken_tool", "tool", ["Tool Correctness"]),
        ("test_case_1", None, ["Tool Correctness", "Agent Loop Detection"]),
        ("planner", "agent", ["Tool Correctness"]),
        ("researcher", "agent", ["Agent Loop Detection"]),
        ("broken_tool", "tool", ["Tool Correctness"]),
    ]
    rows = {(r.index, r.name, m.name): m for r in result.test_results for m in r.metrics_data}
    # the trace's tools against each golden's expected tools
    assert rows[(0, "test_case_0", "Tool Correctness")].score == 1.0
    assert rows[(1, "test_case_1", "Tool Correctness")].score == 1.0
    # the span's own expected tools: search found, calculator missing
    assert rows[(0, "planner", "Tool Correctness")].score == 0.5
    # the researcher repeats search(topic) 3 times: repetition 0.5 -> (0.4 x 0.5 + 0.35 + 0.25) / 1.0
    assert rows[(0, "researcher", "Agent Loop Detection")].score == pytest.approx(0.8)
    assert rows[(0, "researcher", "Agent Loop Detection")].error is None
    # the whole run (planner root): the same repetition inside it
    assert rows[(0, "test_case_0", "Agent Loop Detection")].score == pytest.approx(0.8)
    # the tool that raised: its row is kept, failed, with the span's error as the reason
    broken = rows[(0, "broken_tool", "Tool Correctness")]
    assert broken.success is False and broken.score is None and "tool backend down" in (broken.reason or "")
    assert all(m.error is None for k, m in rows.items() if k[1] != "broken_tool")


def test_span_dict_is_4_3_1s_shape() -> None:
    planner("q")
    (trace,) = trace_manager.traces
    tree = span_dict(trace.root_spans[0])
    assert tree["name"] == "planner" and tree["type"] == "agent" and tree["input"] == {"question": "q"}
    assert [c["name"] for c in tree["children"]] == ["think", "search", "broken_tool", "researcher"]
    think_span, _, broken, _ = tree["children"]
    assert think_span["model"] == "scripted-model" and think_span["type"] == "llm"
    assert broken["error"] == "tool backend down" and "output" not in broken
    assert set(tree) >= {"name", "type", "input", "output", "tools_called", "expected_tools", "children"}
    assert not {"uuid", "start_time", "status", "metrics", "metadata"} & set(tree)


def _judge(prompt: str, schema: Any) -> dict[str, Any]:
    if '"verdict"' in prompt:
        return {"verdict": 0.5 if "Rome" in prompt else 1.0, "reason": "scripted"}
    assert (
        "AGENT_TRACE" in prompt and "search" in prompt
    )  # the trace of this golden's run, not the input alone
    task = "find flights to Rome" if "Rome" in prompt else "weather in Paris"
    return {"task": task, "outcome": f"searched for {task}"}


def test_task_completion_on_traced_runs_with_async_app() -> None:
    """The async form of evals_iterator (tasks on the iterator's loop); TaskCompletion reads each golden's trace;
    the trace-level and span-level rows are all there."""
    import asyncio

    llm = ScriptedLLM(_judge)

    @observe(type="agent", name="async_planner", metrics=[TaskCompletionMetric(model=llm, eval_mode="llm")])
    async def app(question: str) -> str:
        await asyncio.sleep(0)
        think(question)
        search(question)
        return f"answer to {question}"

    dataset = EvaluationDataset(goldens=[Golden(input="weather in Paris"), Golden(input="flights to Rome")])
    iterator = dataset.evals_iterator(
        metrics=[TaskCompletionMetric(model=llm, eval_mode="llm")], display_config=QUIET
    )
    try:
        while True:
            golden = next(iterator)
            dataset.evaluate(asyncio.create_task(app(golden.input)))
    except StopIteration as stop:
        result = stop.value
    rows = {(r.index, r.name): r.metrics_data for r in result.test_results}
    assert [m.score for m in rows[(0, "test_case_0")]] == [1.0]
    assert [m.score for m in rows[(1, "test_case_1")]] == [0.5]
    assert [m.score for m in rows[(1, "async_planner")]] == [0.5]
    assert all(m.evaluation_model == "scripted-llm" for ms in rows.values() for m in ms)
    assert llm.call_count == 8  # 4 measures x (extraction + verdict)
