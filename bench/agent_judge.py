"""The scripted judge of the judged agent parity set (``bench/agent_cases.py``, ``JUDGED``): the same answers for
deepeval 4.3.1's prompts and ours, so both implementations score the same judgements.

Each case's input carries a token ``[case:<id>]`` that both implementations quote in their prompts (and that the
scripted task carries on into the verdict prompt and the System One state). The reply is the case's ``script``:
the LLM step is recognised by the JSON keys the prompt asks for (both implementations ask for deepeval's schema
fields); a System One request by its questions (yes/no probabilities in order, the expected level of a score
question). Only the standard library: both virtual environments import it.
"""

from __future__ import annotations

import json
import re
from typing import Any

TOKEN = re.compile(r"\[case:([a-z0-9_]+)\]")


def case_id(text: str) -> str:
    found = TOKEN.search(text)
    if found is None:
        raise LookupError(f"no [case:...] token in: {text[:300]!r}")
    return found.group(1)


def token(case: str) -> str:
    return f"[case:{case}]"


def _task_completion(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"verdict"' in prompt or "`verdict`" in prompt:
        return {"verdict": script["verdict"], "reason": f"scripted verdict for {cid}"}
    return {"task": f"{token(cid)} {script['task']}", "outcome": f"{token(cid)} {script['outcome']}"}


def _tool_selection(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    return {"score": script["selection"], "reason": f"scripted selection for {cid}"}


def _argument_correctness(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"verdicts"' in prompt or "`verdicts`" in prompt:
        return {
            "verdicts": [
                {"verdict": v, "reason": None if v == "yes" else "wrong"} for v in script["verdicts"]
            ]
        }
    return {"reason": f"scripted reason for {cid}"}


def _plan(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' in prompt:
        return {"score": script["score"], "reason": f"scripted judgement for {cid}"}
    if '"plan": [' in prompt:
        return {"plan": script["plan"]}
    return {"task": f"{token(cid)} {script['task']}"}


def _step_efficiency(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' in prompt:
        return {"score": script["score"], "reason": f"scripted efficiency for {cid}"}
    return {"task": f"{token(cid)} {script['task']}"}


UNIT = re.compile(r"\[unit:(\d+)\]")


def _unit(text: str) -> int:
    found = UNIT.search(text)
    if found is None:
        raise LookupError(f"no [unit:...] token in: {text[:300]!r}")
    return int(found.group(1))


def _goal_accuracy(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' not in prompt:
        return {"reason": f"scripted reason for {cid}"}
    unit = _unit(prompt)
    if "plan" in prompt.lower():
        return {"score": script["plan"][unit], "reason": f"{token(cid)} plan {unit}"}
    return {"score": script["goal"][unit], "reason": f"{token(cid)} goal {unit}"}


PAIR = re.compile(r"\[pair:(\d+)\]")


def _topic_adherence(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if "qa_pairs" in prompt:
        unit = _unit(prompt)
        return {
            "qa_pairs": [
                {"question": f"{token(cid)} [pair:{i}] question {i}", "response": f"response {i}"}
                for i in script["units"][unit]
            ]
        }
    if "verdict" in prompt.lower():
        found = PAIR.search(prompt)
        assert found is not None
        return {
            "verdict": script["verdicts"][int(found.group(1))],
            "reason": f"{token(cid)} pair {found.group(1)}",
        }
    return {"reason": f"scripted reason for {cid}"}


def _tool_use(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' not in prompt:
        return {"reason": f"scripted reason for {cid}"}
    unit = _unit(prompt)
    key = "selection" if "selection" in prompt.lower() else "arguments"
    return {"score": script[key][unit], "reason": f"{token(cid)} {key} {unit}"}


def _mcp_use(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    key = "arguments" if "argument" in prompt.lower() else "primitives"
    return {"score": script[key], "reason": f"{token(cid)} {key}"}


def _mcp_task(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' not in prompt:
        return {"reason": f"scripted reason for {cid}"}
    unit = _unit(prompt)
    return {"score": script["task_scores"][unit], "reason": f"{token(cid)} task {unit}"}


def _multi_mcp(prompt: str, script: dict[str, Any], cid: str) -> dict[str, Any]:
    if '"score"' not in prompt:
        return {"reason": f"scripted reason for {cid}"}
    unit = _unit(prompt)
    key = "arguments" if "argument" in prompt.lower() else "primitives"
    return {"score": script[key][unit], "reason": f"{token(cid)} {key} {unit}"}


LLM_STEPS = {
    "MultiTurnMCPUseMetric": _multi_mcp,
    "MCPTaskCompletionMetric": _mcp_task,
    "MCPUseMetric": _mcp_use,
    "ToolUseMetric": _tool_use,
    "TopicAdherenceMetric": _topic_adherence,
    "GoalAccuracyMetric": _goal_accuracy,
    "StepEfficiencyMetric": _step_efficiency,
    "PlanAdherenceMetric": _plan,
    "PlanQualityMetric": _plan,
    "TaskCompletionMetric": _task_completion,
    "ToolCorrectnessMetric": _tool_selection,
    "ArgumentCorrectnessMetric": _argument_correctness,
}


def llm_reply(prompt: str, cases: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The scripted LLM reply to ``prompt`` (a JSON object). A prompt without a case token can only be a reason
    prompt built from System One's own reasons (hybrid): it gets a fixed reason (reasons never change a score)."""
    try:
        cid = case_id(prompt)
    except LookupError:
        return {"reason": "scripted reason"}
    case = cases[cid]
    return LLM_STEPS[case["metric"]](prompt, case["script"], cid)


def s1_values(
    state: Any, questions: list[tuple[str, str, str]], cases: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """``question id -> value`` (P(yes) for a yes/no question, the expected level for a score question) for a
    System One request whose questions are ``(id, type, instructions)`` in order: a whole-metric request (yes/no
    questions and a score question) takes ``nouls`` and ``level`` (or one of ``levels`` per score question); a
    hybrid request takes ``hybrid_level`` (one score question; per exchange and kind for goal accuracy) or
    ``p_yes`` (one yes/no question per item); a choice question takes the next ``choices`` entry (probabilities by
    option position)."""
    text = json.dumps(state, ensure_ascii=False, default=str)
    case = cases[case_id(text)]
    script = case["script"]
    if "p_on" in script and isinstance(state, dict) and "question" in state:  # topic adherence, one pair
        found = PAIR.search(text)
        assert found is not None
        pair = int(found.group(1))
        return {
            qid: float(script["p_answered" if "`response`" in instructions else "p_on"][pair])
            for qid, _, instructions in questions
        }
    whole = (any(kind in ("score", "choice") for _, kind, _ in questions) and len(questions) > 1) or (
        isinstance(state, dict) and "turns" in state
    )
    yes_no = iter(script.get("nouls" if whole else "p_yes", []))
    choices = iter(script.get("choices", []))
    levels = iter(script.get("levels", []))
    out: dict[str, Any] = {}
    for qid, kind, instructions in questions:
        if kind == "choice":
            out[qid] = list(next(choices))
        elif kind == "score" and whole:
            out[qid] = float(next(levels) if "levels" in script else script["level"])
        elif kind == "score" and "hybrid_primitive_levels" in script:
            key = (
                "hybrid_argument_levels"
                if instructions.startswith("How correct")
                else "hybrid_primitive_levels"
            )
            out[qid] = float(script[key][_unit(text)])
        elif kind == "score" and "hybrid_levels" in script:
            out[qid] = float(script["hybrid_levels"][_unit(text)])
        elif kind == "score" and "hybrid_primitives" in script:
            key = "hybrid_arguments" if instructions.startswith("How correct") else "hybrid_primitives"
            out[qid] = float(script[key])
        elif kind == "score" and "hybrid_selection" in script:
            unit = _unit(text)
            key = "hybrid_arguments" if "argument" in instructions.lower() else "hybrid_selection"
            out[qid] = float(script[key][unit])
        elif kind == "score" and "hybrid_goal" in script:
            unit = _unit(text)
            key = "hybrid_plan" if "plan" in instructions.lower() else "hybrid_goal"
            out[qid] = float(script[key][unit])
        elif kind == "score":
            out[qid] = float(script["hybrid_level"])
        else:
            out[qid] = float(next(yes_no))
    return out


def wire_questions(questions: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(id, type, instructions)`` of a ``/v1/systemone`` request's questions, in order."""
    return [(qid, str(q.get("type")), str(q.get("instructions", ""))) for qid, q in questions.items()]
