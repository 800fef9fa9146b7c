"""The judged agent metrics (TaskCompletion, ToolCorrectness with available_tools, ...) in llm, hybrid and
system_one mode on the scripted judge of ``bench/agent_judge.py``: the same scores deepeval 4.3.1 gave on the same
judge answers (``tests/metrics/data/agents_judged_4_3_1.json``, written by ``python bench/agents_parity.py --judged
--write`` against loopback HTTP judges), the offline rule, fallbacks, and the trace path."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from deepeval.errors import ConfigurationError, MissingTestCaseParamsError
from deepeval.metrics import TaskCompletionMetric, ToolCorrectnessMetric
from deepeval.models.system_one.schema import ChoiceAnswer, distribution_confidence
from deepeval.test_case import LLMTestCase, ToolCall
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
from agent_cases import JUDGED  # noqa: E402
from agent_judge import llm_reply, s1_values  # noqa: E402
from agents_parity import build, run_case  # noqa: E402

sys.path.remove(str(REPO / "bench"))

REFERENCE: dict[str, list[dict[str, Any]]] = json.loads(
    (REPO / "tests/metrics/data/agents_judged_4_3_1.json").read_text()
)
CASES = {c["id"]: c for c in JUDGED}
MODES = ("llm", "hybrid", "system_one")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"unexpected connection: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)


def scripted_llm() -> ScriptedLLM:
    return ScriptedLLM(lambda prompt, schema: llm_reply(prompt, CASES), name="parity-judge")


def _kind(question: Any) -> str:
    return "score" if hasattr(question, "levels") else "choice" if hasattr(question, "options") else "noul"


def scripted_s1() -> ScriptedSystemOne:
    def decide(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
        values = s1_values(state, [(qid, _kind(q), q.instructions) for qid, q in questions.items()], CASES)
        for qid, q in questions.items():
            if _kind(q) == "choice":  # probabilities by option position -> the answer object
                probs = dict(zip(q.options, values[qid], strict=True))
                best = max(probs, key=lambda n: probs[n])
                values[qid] = ChoiceAnswer(
                    choice=best, probabilities=probs, confidence=distribution_confidence(probs)
                )
        return values

    return ScriptedSystemOne(decide, name="parity-s1")


def _measure(case: dict[str, Any], mode: str) -> dict[str, Any]:
    judges = {"model": scripted_llm(), "system_one_model": scripted_s1(), "eval_mode": mode}
    return run_case({**case, "kwargs": {**case["kwargs"], **judges}})


PARAMS = [(mode, row["id"]) for mode in MODES for row in REFERENCE[mode]]


@pytest.mark.parametrize(("mode", "case_id"), PARAMS, ids=[f"{m}-{c}" for m, c in PARAMS])
def test_same_score_as_4_3_1(mode: str, case_id: str) -> None:
    theirs = next(r for r in REFERENCE[mode] if r["id"] == case_id)
    ours = _measure(CASES[case_id], mode)
    assert "score" in theirs and "score" in ours, (theirs, ours)
    assert ours["score"] == pytest.approx(theirs["score"], abs=1e-9)
    if theirs["success"] is None and CASES[case_id]["metric"] == "ToolUseMetric":
        # 4.3.1's ToolUseMetric never sets success in llm and hybrid mode (it is None); ours applies the one rule
        threshold = (
            1.0
            if CASES[case_id]["kwargs"].get("strict_mode")
            else CASES[case_id]["kwargs"].get("threshold", 0.5)
        )
        assert ours["success"] is (ours["score"] >= threshold)
    else:
        assert ours["success"] == theirs["success"]
    if CASES[case_id]["kwargs"].get("include_reason") is False:
        assert ours["reason"] is None
    else:
        assert ours["reason"]


def test_at_least_15_inputs_per_metric_and_mode() -> None:
    for mode in MODES:
        for metric in (
            "TaskCompletionMetric",
            "ToolCorrectnessMetric",
            "ArgumentCorrectnessMetric",
            "PlanAdherenceMetric",
            "PlanQualityMetric",
        ):
            assert sum(CASES[r["id"]]["metric"] == metric for r in REFERENCE[mode]) >= 15


def test_task_completion_reads_the_trace_when_there_is_one() -> None:
    llm = scripted_llm()
    metric, tc = build({**CASES["tk05"], "kwargs": {"model": llm, "eval_mode": "llm"}})
    assert metric.measure(tc) == pytest.approx(0.3)
    assert "search_flights" in llm.calls[0].prompt and "AGENT_TRACE" in llm.calls[0].prompt
    metric, tc = build({**CASES["tk04"], "kwargs": {"model": llm, "eval_mode": "llm"}})
    metric.measure(tc)
    assert "AGENT_ANSWER" in llm.calls[-2].prompt and "TOOLS_CALLED" in llm.calls[-2].prompt


def test_a_given_task_replaces_the_extracted_one() -> None:
    llm = scripted_llm()
    metric, tc = build(
        {**CASES["tk07"], "kwargs": {**CASES["tk07"]["kwargs"], "model": llm, "eval_mode": "llm"}}
    )
    metric.measure(tc)
    assert "Book the cheapest flight" in llm.calls[-1].prompt
    assert metric.task == "Book the cheapest flight"
    assert metric.score_breakdown["task"] == "Book the cheapest flight"


def test_system_one_mode_makes_one_request_and_no_llm_call() -> None:
    llm, s1 = scripted_llm(), scripted_s1()
    metric, tc = build(
        {**CASES["tk04"], "kwargs": {"model": llm, "system_one_model": s1, "eval_mode": "system_one"}}
    )
    assert metric.measure(tc) == pytest.approx((2 * 0.8 + 0.3 + 2.2 / 3) / 4)
    assert llm.call_count == 0 and s1.call_count == 1
    assert set(s1.calls[0].state) == {"input", "actual_output", "tools_called"}
    assert metric.confidence is not None and "weighted mean" in (metric.reason or "")


def test_hybrid_falls_back_to_the_llm_when_system_one_fails() -> None:
    def broken(state: Any, questions: Any) -> Any:
        from deepeval.errors import SystemOneError

        raise SystemOneError("down", kind="server", retryable=True)

    llm = scripted_llm()
    metric, tc = build(
        {
            **CASES["tk04"],
            "kwargs": {"model": llm, "system_one_model": ScriptedSystemOne(broken), "eval_mode": "hybrid"},
        }
    )
    assert metric.measure(tc) == pytest.approx(0.85)  # the LLM's verdict
    assert "judged by the LLM" in (metric.system_one_fallback_reason or "")


@pytest.mark.parametrize("mode", [None, "hybrid", "system_one"])
def test_no_judge_configured_is_a_configuration_error(mode: str | None) -> None:
    """The offline rule: the embedded judge answers no agent question, so nothing is scored without a judge."""
    tc = LLMTestCase(input="q", actual_output="a")
    with pytest.raises(ConfigurationError, match="Configure an LLM judge"):
        TaskCompletionMetric(eval_mode=mode).measure(tc)
    selection = ToolCorrectnessMetric(available_tools=[ToolCall(name="a")], eval_mode=mode)
    with pytest.raises(ConfigurationError):
        selection.measure(LLMTestCase(input="q", tools_called=[], expected_tools=[]))


def test_required_fields() -> None:
    with pytest.raises(MissingTestCaseParamsError, match="actual_output"):
        TaskCompletionMetric(model=scripted_llm()).measure(LLMTestCase(input="q"))
    with pytest.raises(TypeError, match="task"):
        TaskCompletionMetric(task=3)  # type: ignore[arg-type]


def test_verdict_out_of_range_is_reasked_then_an_error() -> None:
    replies = iter(
        [{"task": "t", "outcome": "o"}, {"verdict": 7, "reason": "x"}, {"verdict": 0.4, "reason": "ok"}]
    )
    llm = ScriptedLLM(lambda prompt, schema: next(replies))
    metric = TaskCompletionMetric(model=llm, eval_mode="llm")
    assert metric.measure(LLMTestCase(input="q", actual_output="a")) == pytest.approx(0.4)
    assert llm.call_count == 3


def test_tool_selection_is_not_asked_without_available_tools_or_for_multimodal() -> None:
    llm = scripted_llm()
    metric = ToolCorrectnessMetric(model=llm)
    metric.measure(
        LLMTestCase(input="q", tools_called=[ToolCall(name="a")], expected_tools=[ToolCall(name="a")])
    )
    assert llm.call_count == 0 and metric.evaluation_model is None
    metric = ToolCorrectnessMetric(available_tools=[ToolCall(name="a")], model=llm)
    metric.measure(
        LLMTestCase(
            input="q", tools_called=[ToolCall(name="a")], expected_tools=[ToolCall(name="a")], multimodal=True
        )
    )
    assert llm.call_count == 0
