"""Deep traces: the judge view of a trace (``metrics/agent_trace.compact_trace``) is built in one iterative pass and
refuses a trace nested deeper than ``MAX_TRACE_DEPTH`` with a clear error (it was a bare ``RecursionError`` at depth
500 from the JSON encoder); AgentLoopDetection's cycle check is one linear pass at any depth (it copied the path
per span: depth 2,000 took 7 s)."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import BaseModel

from deepeval.metrics import (
    AgentLoopDetectionMetric,
    PlanAdherenceMetric,
    StepEfficiencyMetric,
    TaskCompletionMetric,
)
from deepeval.metrics.agent_loop_detection import signals
from deepeval.metrics.agent_trace import MAX_TRACE_DEPTH, TraceTooDeepError, compact_trace, trace_text
from deepeval.models.system_one.schema import ChoiceQuestion
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne


def chain(depth: int, *, repeat_first_at_end: bool = False) -> dict[str, Any]:
    root: dict[str, Any] = {"name": "s0", "type": "agent", "input": "0", "children": []}
    node = root
    for i in range(1, depth):
        nxt = {"name": f"s{i}", "type": "agent", "input": str(i), "children": []}
        if repeat_first_at_end and i == depth - 1:
            nxt = {"name": "s0", "type": "agent", "input": "0", "children": []}
        node["children"].append(nxt)
        node = nxt
    return root


def _fill(schema: type[BaseModel]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, field in schema.model_fields.items():
        tp = field.annotation
        if tp is float or tp is int:
            out[name] = 1
        elif typing.get_origin(tp) is list:
            out[name] = ["search the docs"]
        else:
            out[name] = "done"
    return out


def _answers(state: Any, questions: Any) -> dict[str, Any]:
    return {q: next(iter(v.options)) if isinstance(v, ChoiceQuestion) else 0.9 for q, v in questions.items()}


def _case(trace: dict[str, Any]) -> LLMTestCase:
    tc = LLMTestCase(input="q", actual_output="a")
    tc._trace_dict = trace
    return tc


TRACE_METRICS = [StepEfficiencyMetric, PlanAdherenceMetric, TaskCompletionMetric]


@pytest.mark.parametrize("cls", TRACE_METRICS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("mode", ["llm", "system_one"])
def test_a_trace_as_deep_as_the_limit_is_judged_and_one_deeper_is_refused(cls: Any, mode: str) -> None:
    llm = ScriptedLLM(lambda prompt, schema: _fill(schema))
    s1 = ScriptedSystemOne(_answers)
    metric = cls(model=llm, system_one_model=s1, eval_mode=mode, async_mode=False)
    score = metric.measure(_case(chain(MAX_TRACE_DEPTH)))
    assert score is not None and 0.0 <= score <= 1.0
    assert llm.call_count + s1.call_count > 0
    calls = llm.call_count + s1.call_count
    too_deep = cls(model=llm, system_one_model=s1, eval_mode=mode, async_mode=False)
    with pytest.raises(TraceTooDeepError, match=f"more than {MAX_TRACE_DEPTH} deep.*'s{MAX_TRACE_DEPTH}'"):
        too_deep.measure(_case(chain(MAX_TRACE_DEPTH + 300)))
    assert llm.call_count + s1.call_count == calls  # refused before any judge call
    assert too_deep.score is None


def test_compact_trace_keeps_every_level_and_marks_a_cycle() -> None:
    trace = chain(MAX_TRACE_DEPTH)
    view = compact_trace(trace)
    depth, node = 1, view
    while "children" in node:
        (node,) = node["children"]
        depth += 1
    assert depth == MAX_TRACE_DEPTH and node["name"] == f"s{MAX_TRACE_DEPTH - 1}"
    assert trace_text(trace).count('"name"') == MAX_TRACE_DEPTH
    # a span dict that contains its grandparent: shown as a cycle marker, siblings still expanded
    leaf: dict[str, Any] = {"name": "leaf", "type": "tool", "children": []}
    root: dict[str, Any] = {"name": "root", "type": "agent", "children": []}
    mid: dict[str, Any] = {"name": "mid", "type": "agent", "children": [root, leaf]}
    root["children"] = [mid, {"name": "side", "type": "tool", "children": [leaf]}]
    assert compact_trace(root) == {
        "name": "root",
        "type": "agent",
        "children": [
            {
                "name": "mid",
                "type": "agent",
                "children": [{"name": "root", "cycle": True}, {"name": "leaf", "type": "tool"}],
            },
            {"name": "side", "type": "tool", "children": [{"name": "leaf", "type": "tool"}]},
        ],
    }


def test_loop_detection_finds_a_repeat_at_any_depth_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    identity = signals._identity

    def counted(span: dict[str, Any]) -> tuple[str, str, str]:
        seen.append(1)
        return identity(span)

    monkeypatch.setattr(signals, "_identity", counted)
    assert signals.call_graph_cycle(chain(5_000)) == (1.0, "No execution cycles detected.")
    assert (
        len(seen) == 5_000
    )  # each span's identity once (the old walk recomputed every ancestor's: 12.5 million)
    score, text = signals.call_graph_cycle(chain(3_000, repeat_first_at_end=True))
    assert score == 0.0 and text.startswith("Cycle in the execution path (a span repeats an ancestor")
    assert text.count(" -> ") == 2_999 and text.endswith("agent:s2998 -> agent:s0.")
    metric = AgentLoopDetectionMetric()
    assert metric.measure(_case(chain(3_000, repeat_first_at_end=True))) == pytest.approx(0.75)
