"""The judge-free agent metrics (ToolCorrectness without available_tools, ToolPermission, AgentLoopDetection,
AgentResponsiveness): parity with deepeval 4.3.1 on every case of ``bench/agent_cases.py`` (4.3.1's results kept in
``tests/metrics/data/agents_4_3_1.json`` by ``python bench/agents_parity.py --write``), no judge and no network,
and bad input."""

from __future__ import annotations

import datetime as dt
import json
import socket
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from deepeval import assert_test, evaluate
from deepeval.errors import MissingTestCaseParamsError
from deepeval.evaluate import AsyncConfig, DisplayConfig
from deepeval.metrics import (
    AgentLoopDetectionMetric,
    AgentResponsivenessMetric,
    ToolCorrectnessMetric,
    ToolPermissionMetric,
)
from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from agent_cases import CASES, DIFFERENCES  # noqa: E402
from agents_parity import build, run_case  # noqa: E402

sys.path.remove(str(REPO / "bench"))

REFERENCE = {r["id"]: r for r in json.loads((REPO / "tests/metrics/data/agents_4_3_1.json").read_text())}
#: cases whose 4.3.1 reason lists several tools from a set (an order that changes per process): same text otherwise
SET_ORDER = {"tc_no_tools_called"}
#: ours' own result on the cases of DIFFERENCES (4.3.1's is in the reference file)
OURS_WHERE_DIFFERENT = {
    "tc_duplicate_both": {"score": 1.0, "success": True},
    "ld_no_trace": {"error": "MissingTestCaseParamsError"},
    "tc_missing_tools_called": {"error": "MissingTestCaseParamsError"},
    "tc_missing_expected_tools": {"error": "MissingTestCaseParamsError"},
    "tp_missing_tools_called": {"error": "MissingTestCaseParamsError"},
    "ld_missing_output": {"error": "MissingTestCaseParamsError"},
}


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection attempt fails the test: these metrics never call a judge."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a judge-free metric opened a connection: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_every_case_has_a_reference_result() -> None:
    assert {c["id"] for c in CASES} == set(REFERENCE)
    assert set(DIFFERENCES) == set(OURS_WHERE_DIFFERENT)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_parity_with_4_3_1(case: dict[str, Any]) -> None:
    ours, theirs = run_case(case), REFERENCE[case["id"]]
    if case["id"] in DIFFERENCES:
        want = OURS_WHERE_DIFFERENT[case["id"]]
        for key, value in want.items():
            assert ours[key] == value, (key, ours)
        return
    for key in ("error", "construct_error"):
        assert ours.get(key) == theirs.get(key), ours
    if "score" not in theirs:
        return
    assert ours["score"] == pytest.approx(theirs["score"], abs=1e-12)
    assert ours["success"] == theirs["success"]
    metric = case["metric"]
    if metric in (
        "ToolCorrectnessMetric",
        "ToolPermissionMetric",
    ):  # the reasons users match on: 4.3.1's words
        if case["id"] in SET_ORDER:
            assert sorted(ours["reason"]) == sorted(theirs["reason"])
        else:
            assert ours["reason"] == theirs["reason"]
    if metric in ("AgentLoopDetectionMetric", "AgentResponsivenessMetric"):
        assert ours["score_breakdown"] == theirs["score_breakdown"]


def test_4_3_1_divides_by_the_expected_tools() -> None:
    """4.3.1's docs say "tools called"; its code (and ours) divides by the expected tools: 1 of 3 expected -> 1/3,
    whatever else was called."""
    assert REFERENCE["tc_expected_one_of_three"]["score"] == pytest.approx(1 / 3)
    assert REFERENCE["tc_all_called_plus_extra"]["score"] == 1.0
    metric = ToolCorrectnessMetric()
    tc = LLMTestCase(
        input="q",
        tools_called=[ToolCall(name="a"), ToolCall(name="x"), ToolCall(name="y")],
        expected_tools=[ToolCall(name="a"), ToolCall(name="b")],
    )
    assert metric.measure(tc) == 0.5


def test_duplicates_count_each_call_once() -> None:
    """ours: two identical expected calls met by two identical calls score 1.0 (4.3.1: 0.5); two expected, one
    called: 0.5 in both."""
    a = ToolCall(name="search", input_parameters={"q": "x"})
    both = LLMTestCase(input="q", tools_called=[a, a], expected_tools=[a, a])
    one = LLMTestCase(input="q", tools_called=[a], expected_tools=[a, a])
    assert REFERENCE["tc_duplicate_both"]["score"] == 0.5
    assert ToolCorrectnessMetric().measure(both) == 1.0
    assert ToolCorrectnessMetric().measure(one) == 0.5


@pytest.mark.parametrize(
    "metric",
    [
        ToolCorrectnessMetric(),
        ToolCorrectnessMetric(
            should_consider_ordering=True, evaluation_params=[ToolCallParams.INPUT_PARAMETERS]
        ),
        ToolPermissionMetric(allowed_tools=["search"]),
        AgentLoopDetectionMetric(),
    ],
    ids=["tool_correctness", "tool_correctness_ordered", "tool_permission", "loop_detection"],
)
def test_no_judge_configured_no_network(metric: Any) -> None:
    """No key, no eval mode, no dotenv (the metrics conftest), sockets refused: measure, a_measure, evaluate and
    assert_test all work, and no judge is named."""
    tc = LLMTestCase(
        input="q",
        actual_output="a",
        tools_called=[ToolCall(name="search")],
        expected_tools=[ToolCall(name="search")],
    )
    tc._trace_dict = {"name": "agent", "type": "agent", "input": "q", "output": "a", "children": []}
    assert metric.measure(tc) == 1.0
    assert metric.evaluation_model is None
    assert metric.evaluation_cost == 0.0
    result = evaluate(
        [tc],
        [metric],
        async_config=AsyncConfig(run_async=True),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    (row,) = result.test_results[0].metrics_data
    assert (row.score, row.success, row.error) == (1.0, True, None)
    assert_test(tc, [metric])


def test_assert_test_names_the_failed_metric() -> None:
    tc = LLMTestCase(
        input="q", tools_called=[ToolCall(name="email")], expected_tools=[ToolCall(name="search")]
    )
    with pytest.raises(AssertionError, match="Tool Correctness"):
        assert_test(tc, [ToolCorrectnessMetric()])
    with pytest.raises(AssertionError, match="Tool Permission"):
        assert_test(tc, [ToolPermissionMetric(denied_tools=["email"])])


def test_include_reason_false_leaves_no_reason() -> None:
    """ours: REFERENCE §2 (4.3.1's ToolCorrectness fills the reason anyway)."""
    tc = LLMTestCase(input="q", tools_called=[], expected_tools=[ToolCall(name="a")])
    metric = ToolCorrectnessMetric(include_reason=False)
    assert metric.measure(tc) == 0.0
    assert metric.reason is None


def test_verbose_logs_show_both_lists(capsys: pytest.CaptureFixture[str]) -> None:
    tc = LLMTestCase(input="q", tools_called=[ToolCall(name="a")], expected_tools=[ToolCall(name="b")])
    metric = ToolCorrectnessMetric(verbose_mode=True)
    metric.measure(tc)
    assert metric.verbose_logs is not None
    assert 'name="a"' in metric.verbose_logs and 'name="b"' in metric.verbose_logs
    assert "Tool Correctness verbose logs" in capsys.readouterr().out


# -- bad input ------------------------------------------------------------------------------------------------------
def test_tool_call_without_a_name_is_refused() -> None:
    with pytest.raises(TypeError, match="name"):
        ToolCall(input_parameters={"q": 1})  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="name"):
        ToolCall(name=None)  # type: ignore[arg-type]


def test_bad_evaluation_params_and_available_tools() -> None:
    with pytest.raises(ValueError, match="evaluation_params"):
        ToolCorrectnessMetric(evaluation_params=["arguments"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="available_tools"):
        ToolCorrectnessMetric(available_tools="search")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="allowed_tools"):
        ToolPermissionMetric()
    with pytest.raises(TypeError, match="single string"):
        ToolPermissionMetric(allowed_tools="search")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="repetition_threshold"):
        AgentLoopDetectionMetric(repetition_threshold=0)


def test_arguments_that_are_not_json() -> None:
    """Arguments holding dates, sets and objects compare by equality; reprs and cache keys do not fail."""

    class Handle:
        pass

    h = Handle()
    expected = ToolCall(name="book", input_parameters={"when": dt.date(2026, 1, 2), "seats": {1, 2}, "h": h})
    called = ToolCall(name="book", input_parameters={"when": dt.date(2026, 1, 2), "seats": {1, 3}, "h": h})
    metric = ToolCorrectnessMetric(evaluation_params=[ToolCallParams.INPUT_PARAMETERS])
    tc = LLMTestCase(input="q", tools_called=[called], expected_tools=[expected])
    assert metric.measure(tc) == pytest.approx(2 / 3)
    assert "2026" in (metric.reason or "")


def test_huge_argument_blob_is_scored_and_cut_in_the_reason() -> None:
    blob = "x" * 2_000_000
    expected = ToolCall(name="upload", input_parameters={"data": blob})
    called = ToolCall(name="upload", input_parameters={"data": blob[:-1] + "y"})
    metric = ToolCorrectnessMetric(evaluation_params=[ToolCallParams.INPUT_PARAMETERS])
    started = time.perf_counter()
    assert metric.measure(LLMTestCase(input="q", tools_called=[called], expected_tools=[expected])) == 0.0
    assert time.perf_counter() - started < 5
    assert metric.reason is not None and len(metric.reason) < 2_000
    assert "more characters" in metric.reason


def test_parameters_missing_on_one_side_count_as_empty() -> None:
    """ours: 4.3.1 raises AttributeError ('NoneType' has no attribute 'keys') when only one side has parameters."""
    metric = ToolCorrectnessMetric(evaluation_params=[ToolCallParams.INPUT_PARAMETERS])
    tc = LLMTestCase(
        input="q",
        tools_called=[ToolCall(name="a")],
        expected_tools=[ToolCall(name="a", input_parameters={"k": 1})],
    )
    assert metric.measure(tc) == 0.0
    tc = LLMTestCase(
        input="q", tools_called=[ToolCall(name="a", input_parameters={})], expected_tools=[ToolCall(name="a")]
    )
    assert metric.measure(tc) == 1.0


def _case(trace: Any) -> LLMTestCase:
    tc = LLMTestCase(input="q", actual_output="a")
    tc._trace_dict = trace
    return tc


def test_cyclic_span_objects_are_a_cycle_not_a_hang() -> None:
    root: dict[str, Any] = {"name": "agent", "type": "agent", "input": "q", "children": []}
    child: dict[str, Any] = {"name": "tool", "type": "tool", "input": "x", "children": [root]}
    root["children"].append(child)
    metric = AgentLoopDetectionMetric()
    assert metric.measure(_case(root)) == pytest.approx(0.75)
    assert metric.score_breakdown == {
        "tool_repetition": 1.0,
        "reasoning_stagnation": 1.0,
        "call_graph_cycles": 0.0,
    }
    assert "cycle" in (metric.reason or "").lower()


def test_deep_trace_does_not_overflow() -> None:
    root: dict[str, Any] = {"name": "n0", "type": "agent", "input": "0", "children": []}
    node = root
    for i in range(1, 5000):
        nxt = {"name": f"n{i}", "type": "agent", "input": str(i), "children": []}
        node["children"].append(nxt)
        node = nxt
    metric = AgentLoopDetectionMetric()
    assert metric.measure(_case(root)) == 1.0


def test_no_trace_says_how_to_provide_one() -> None:
    metric = AgentLoopDetectionMetric()
    with pytest.raises(MissingTestCaseParamsError, match="evals_iterator"):
        metric.measure(LLMTestCase(input="q", actual_output="a"))
    assert metric.score is None and metric.success is None


def test_responsiveness_reprompts_and_critical_events() -> None:
    from deepeval.test_case import Audio, ConversationalTestCase, Turn

    clip = Audio(url="https://example.com/a.wav")
    turns = [
        Turn(role="user", content="Hi"),
        Turn(role="user", content="Hello?"),
        Turn(role="assistant", content="Hello!", audio=clip),
    ]
    metric = AgentResponsivenessMetric()
    assert metric.measure(ConversationalTestCase(turns=turns)) == 0.75
    assert metric.score_breakdown == {
        "critical_failure": False,
        "events": [{"type": "user_reprompted", "turn": 1, "critical": False}],
    }
    with pytest.raises(TypeError):
        AgentResponsivenessMetric(0.5)  # type: ignore[misc]  # keyword-only, as 4.3.1


def test_cache_config_holds_the_options() -> None:
    a = ToolCorrectnessMetric(should_consider_ordering=True).cache_config()
    b = ToolCorrectnessMetric().cache_config()
    assert a != b and a["should_consider_ordering"] is True
    assert ToolPermissionMetric(allowed_tools=["b", "a"]).cache_config()["allowed_tools"] == ["a", "b"]
    assert "eval_mode" not in b  # no judge, no mode


def test_build_is_the_harness_builder() -> None:
    """The parity harness builds the same objects the tests measure (a guard on the test itself)."""
    metric, tc = build(CASES[0])
    assert isinstance(metric, ToolCorrectnessMetric) and isinstance(tc, LLMTestCase)


def test_cli_evaluate_with_tool_correctness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`deepeval evaluate FILE --metric tool_correctness` on a JSONL file with tool calls, no judge configured;
    `--metric tool_permission` cannot be built without its policy (exit 2, the constructor's message)."""
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    monkeypatch.chdir(tmp_path)
    cases = tmp_path / "cases.jsonl"
    rows = [
        {
            "input": "q1",
            "actual_output": "a",
            "tools_called": [{"name": "weather"}],
            "expected_tools": [{"name": "weather"}],
        },
        {
            "input": "q2",
            "actual_output": "a",
            "tools_called": [{"name": "search"}],
            "expected_tools": [{"name": "search"}, {"name": "book"}],
        },
    ]
    cases.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "rows.csv"
    result = CliRunner().invoke(
        app, ["evaluate", str(cases), "--metric", "tool_correctness", "--csv", str(out)]
    )
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "Tool Correctness,1.0,0.5,True" in text and "Tool Correctness,0.5,0.5,True" in text
    result = CliRunner().invoke(app, ["evaluate", str(cases), "--metric", "tool_permission"])
    assert result.exit_code == 2 and "allowed_tools" in result.output
