"""The GEval parity set: test cases, metric definitions and the scripted judge's answers (pure data, no I/O, no
``deepeval`` import, so the worker imports it under either implementation).

Each case carries its id (``case-NN``) in its actual output; the judge finds it in the prompt and answers with the
case's scripted score, reason and, on the log-probability path, the top alternatives of the score token. Steps
requests are answered from the criteria alone. Both implementations therefore get identical judge answers; the
scores they compute from them are what the parity table compares.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

CASE_ID = re.compile(r"case-\d\d")

CRITERIA = [
    "Determine whether the actual output is factually correct based on the expected output.",
    "Check whether the actual output answers the input politely and concisely.",
    "Judge whether the actual output stays grounded in the retrieval context.",
]
STEPS = [
    "Compare every fact of the actual output with the expected output.",
    "Penalise contradictions heavily and omissions lightly.",
]
RUBRIC = [
    [0, 2, "Wrong or contradicts the expected output."],
    [3, 6, "Partly correct."],
    [7, 9, "Mostly correct."],
    [10, 10, "Fully correct."],
]

# (score token, {alternative token: probability}) per case; None: the judge exposes no alternatives for it
_DISTS: list[tuple[Any, dict[str, float] | None]] = [
    (7, {"7": 0.6, "8": 0.25, "6": 0.1, " 7": 0.03, "x": 0.02}),
    (9, {"9": 0.7, "10": 0.2, "8": 0.1}),
    (3, {"3": 0.5, "2": 0.3, "4": 0.2}),
    (10, {"10": 0.95, "9": 0.05}),
    (0, {"0": 0.8, "1": 0.15, "2": 0.005, "a": 0.045}),
    (5, {"5": 0.4, "6": 0.35, "4": 0.25}),
    (8, {"8": 0.55, "7": 0.3, "9": 0.149, "6": 0.001}),
    (6, {"6": 0.9, "٦": 0.1}),  # an Arabic-Indic digit: str.isdecimal() is true for it
    (2, None),
    (4, {"4": 0.34, "5": 0.33, "3": 0.33}),
    (7.5, {"7": 0.5, "8": 0.5}),  # a float score: no token spells "7.5", the raw score stands
    (1, {"1": 0.6, "0": 0.4}),
    (9, {"9": 0.5, "8": 0.3, "7": 0.2}),
    (6, {"6": 0.7, "5": 0.3}),
    (3, {"3": 0.99, "4": 0.01}),
    (8, {"8": 0.45, "9": 0.45, "10": 0.1}),
    (10, {"10": 0.6, "9": 0.3, "8": 0.1}),
    (5, {"5": 1.0}),
    (2, {"2": 0.7, "3": 0.2, "1": 0.1}),
    (7, {"7": 0.55, "six": 0.3, "8": 0.15}),  # an alternative that is not digits: left out
    (4, {"4": 0.5, "3": 0.25, "5": 0.25}),
    (9, {"9": 0.8, "10": 0.2}),
    (1, {"1": 0.5, "2": 0.5}),
    (6, {"6": 0.6, "7": 0.4}),
]


def _config(i: int) -> dict[str, Any]:
    """The metric of case ``i``: criteria or given steps, with or without rubric, strict for a few."""
    cfg: dict[str, Any] = {"name": f"Quality{i % 3}", "params": ["input", "actual_output"]}
    if i % 4 == 1:
        cfg["evaluation_steps"] = STEPS
    else:
        cfg["criteria"] = CRITERIA[i % 3]
    if i % 3 == 0:
        cfg["params"] = ["input", "actual_output", "expected_output"]
    if i in (2, 6, 13, 18):
        cfg["rubric"] = RUBRIC
    if i in (11, 22):
        cfg["strict"] = True
    return cfg


def cases() -> list[dict[str, Any]]:
    """24 cases: input, outputs, the metric config, and the scripted answer."""
    out = []
    for i, (score, dist) in enumerate(_DISTS):
        cfg = _config(i)
        if cfg.get("strict"):
            score, dist = (1 if i % 2 else 0), None
        out.append(
            {
                "id": f"case-{i:02d}",
                "input": f"Question {i}: what is {i} plus {i}?",
                "actual_output": f"[case-{i:02d}] The answer is {2 * i + (i % 3 == 2)}.",
                "expected_output": f"{2 * i}",
                "config": cfg,
                "score": score,
                "dist": dist,
                "reason": f"Case {i}: the output mentions {score} facts.",
            }
        )
    return out


def conv_cases() -> list[dict[str, Any]]:
    """20 conversations (ids case-24..case-43) for ConversationalGEval: the same answers as :func:`cases` (its
    strict cases answer 10 or 0: the conversational score is the 0-10 number / 10, and strict keeps only 1)."""
    out = []
    for k in range(20):
        i = 24 + k
        score, dist = _DISTS[k]
        cfg = _config(k)
        cfg["params"] = ["content", "scenario"] if k % 3 == 0 else ["content"]
        if cfg.get("strict"):
            score, dist = (10 if k % 2 else 0), None
        out.append(
            {
                "id": f"case-{i:02d}",
                "turns": [
                    {"role": "user", "content": f"Question {i}: what is {i} plus {i}?"},
                    {"role": "assistant", "content": f"[case-{i:02d}] The answer is {2 * i}."},
                ],
                "scenario": f"A user asks an arithmetic question ({i}).",
                "config": cfg,
                "score": score,
                "dist": dist,
                "reason": f"Conversation {k}: the assistant answers directly.",
            }
        )
    return out


def _all_cases() -> list[dict[str, Any]]:
    return [*cases(), *conv_cases(), *dag_cases()]


def steps_for(prompt: str) -> list[str]:
    """Steps answered to a steps request (a function of which criteria the prompt holds)."""
    for k, crit in enumerate(CRITERIA):
        if crit in prompt:
            return [
                f"Step A{k}: read the criteria {k}.",
                f"Step B{k}: compare the fields.",
                "Step C: decide.",
            ]
    digest = hashlib.sha256(prompt.encode()).hexdigest()[:6]
    return [f"Step X{digest}: judge the fields."]


def result_content(case: dict[str, Any]) -> str:
    """The JSON text of a result reply (the reason quotes the score number before the score itself)."""
    return '{"reason": "' + case["reason"] + '", "score": ' + str(case["score"]) + "}"


def logprob_positions(case: dict[str, Any]) -> list[dict[str, float]]:
    """Token positions of :func:`result_content` with the alternatives of the score token (natural logs)."""
    head = '{"reason": "' + case["reason"] + '", "score": '
    reason_tokens = [{t: 0.0} for t in re.findall(r"\S+\s*", head)]
    dist = case["dist"] or {str(case["score"]): 1.0}
    score_pos = {t: math.log(p) for t, p in dist.items()}
    # the server sends the most probable alternative as the generated token: it must spell the scripted score
    assert max(score_pos, key=lambda t: score_pos[t]) == str(case["score"]) or not isinstance(
        case["score"], int
    )
    return [*reason_tokens, score_pos, {"}": 0.0}]


def answer_chat(request: dict[str, Any]) -> dict[str, Any]:
    """The loopback server's reply to one chat-completions request."""
    dag = answer_dag_chat(request)
    if dag is not None:
        return dag
    prompt = " ".join(str(m.get("content")) for m in request.get("messages", []) if isinstance(m, dict))
    rf = request.get("response_format") or {}
    schema_name = (rf.get("json_schema") or {}).get("name") if isinstance(rf, dict) else None
    m = CASE_ID.search(prompt)
    if schema_name == "Steps" or m is None:
        return {"content": '{"steps": ' + _json_list(steps_for(prompt)) + "}"}
    case = {c["id"]: c for c in _all_cases()}[m.group(0)]
    reply: dict[str, Any] = {"content": result_content(case)}
    if request.get("logprobs") and case["dist"] is not None:
        reply["logprobs"] = logprob_positions(case)
    return reply


def _json_list(items: list[str]) -> str:
    return "[" + ", ".join('"' + s.replace('"', '\\"') + '"' for s in items) + "]"


def expected_4_3_1_weighted(case: dict[str, Any]) -> float:
    """deepeval 4.3.1's formula on a case's alternatives (for reading the table; the table itself runs 4.3.1)."""
    dist = case["dist"]
    if dist is None or not isinstance(case["score"], int):
        return float(case["score"])
    kept = {t: p for t, p in dist.items() if p >= 0.01 and t.isdecimal()}
    total = sum(kept.values())
    return sum(int(t) * p for t, p in kept.items()) / total if total else float(case["score"])


# -- JevEval / ConversationalJevEval (System One) ------------------------------------------------------------------
JEV_QUESTIONS: list[dict[str, Any]] = [
    {"type": "noul", "statement": "The output answers the question asked.", "weight": 2.0},
    {
        "type": "score",
        "question": "How complete is the answer?",
        "levels": ["missing", "partial", "complete"],
    },
    {
        "type": "choice",
        "question": "Which tone does the output take?",
        "options": {"formal": 1.0, "casual": 0.5, "rude": 0.0, "no tone": None},
        "weight": 0.5,
    },
    {
        "type": "noul",
        "statement": "The output invents no facts.",
        "true": "no invented fact",
        "false": "an invented fact",
    },
    {
        "type": "score",
        "question": "How clear is it?",
        "levels": ["unclear", "so-so", "clear", "very clear"],
        "weight": 3.0,
    },
]


def _u(case_id: str, salt: str) -> float:
    """A number in [0, 1) from the case and the question (the scripted System One answers)."""
    return int(hashlib.sha256(f"{case_id}|{salt}".encode()).hexdigest()[:8], 16) / 2**32


def jev_cases() -> list[dict[str, Any]]:
    """22 cases (ids case-60..case-81): 16 single-turn JevEval, 6 ConversationalJevEval; question subsets, two
    strict, and choices that fall on "no tone" (not applicable)."""
    out = []
    for k in range(22):
        i = 60 + k
        picks = [q for j, q in enumerate(JEV_QUESTIONS) if (k + j) % 3 != 0 or j == 0]
        cfg: dict[str, Any] = {"name": f"Jev{k % 4}", "questions": picks, "strict": k in (5, 13)}
        conv = k >= 16
        cfg["params"] = (
            (["content", "scenario"] if k % 2 else ["content"]) if conv else ["input", "actual_output"]
        )
        out.append(
            {
                "id": f"case-{i:02d}",
                "conv": conv,
                "input": f"Question {i}: name a colour.",
                "actual_output": f"[case-{i:02d}] Blue, sir.",
                "turns": [
                    {"role": "user", "content": f"Question {i}: name a colour."},
                    {"role": "assistant", "content": f"[case-{i:02d}] Blue, sir."},
                ],
                "scenario": "A user asks for a colour.",
                "config": cfg,
            }
        )
    return out


def answer_system_one(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
    """Wire answers of the loopback /v1/systemone server for the JevEval cases (a function of case and question)."""
    import json

    m = CASE_ID.search(json.dumps(state))
    case_id = m.group(0) if m else "none"
    out: dict[str, Any] = {}
    for qid, q in questions.items():
        text = str(q.get("instructions"))
        u = _u(case_id, text)
        if q["type"] == "noul":
            out[qid] = {"type": "noul", "noul": round(0.05 + 0.9 * u, 4)}
        elif q["type"] == "score":
            n = len(q["criteria"])
            raw = [1.0 + ((_u(case_id, f"{text}#{j}") * 10) // 1) for j in range(n)]
            probs = [r / sum(raw) for r in raw]
            expected = sum(j * p for j, p in enumerate(probs))
            conf = max(0.0, (max(probs) - 1 / n) / (1 - 1 / n))
            out[qid] = {
                "type": "score",
                "score": expected,
                "confidence": conf,
                "probabilities": {str(j): p for j, p in enumerate(probs)},
                "legend": {str(j): level for j, level in enumerate(q["criteria"])},
            }
        else:
            names = list(q["criteria"])
            raw = [1.0 + ((_u(case_id, f"{text}#{n}") * 10) // 1) for n in names]
            if u < 0.2:  # "no tone" takes the mass: the question does not apply
                raw[-1] = 40.0
            probs = {n: r / sum(raw) for n, r in zip(names, raw, strict=True)}
            best = max(probs, key=lambda n: probs[n])
            conf = max(0.0, (probs[best] - 1 / len(names)) / (1 - 1 / len(names)))
            out[qid] = {"type": "choice", "choice": best, "confidence": conf, "probabilities": probs}
    return out


# -- DAGMetric ---------------------------------------------------------------------------------------------------
#: graph shapes of the DAG parity set (built by the worker with either implementation's node classes)
DAG_SHAPES = ("task_binary_nonbinary", "binary_geval_child", "nonbinary_root", "two_tasks_one_judgement")
DAG_OPTIONS = ["None missing", "One missing", "Two or more missing"]


def dag_cases() -> list[dict[str, Any]]:
    """20 cases (ids case-90..case-109), five per graph shape."""
    out = []
    for k in range(20):
        i = 90 + k
        out.append(
            {
                "id": f"case-{i:02d}",
                "shape": DAG_SHAPES[k % 4],
                "input": f"Write a short report {i} with an intro, a body and a conclusion.",
                "actual_output": f"[case-{i:02d}] Intro: ... Body: ... Conclusion: ...",
                "expected_output": "Intro, Body, Conclusion",
                # the GEval child of "binary_geval_child" is scored like the GEval cases (same distributions)
                "score": _DISTS[k][0] if isinstance(_DISTS[k][0], int) else 7,
                "dist": _DISTS[k][1],
                "reason": f"Report {k}: it is structured.",
            }
        )
    return out


def _criteria_key(text: str) -> str:
    for c in ("Does the", "How many", "Is the", "Are the"):
        j = text.find(c)
        if j >= 0:
            return text[j : j + 40]
    return text[:40]


def dag_binary(case_id: str, criteria: str) -> bool:
    return _u(case_id, "binary|" + _criteria_key(criteria)) < 0.6


def dag_choice(case_id: str, criteria: str) -> str:
    return DAG_OPTIONS[int(_u(case_id, "choice|" + _criteria_key(criteria)) * 3)]


def _dag_criteria(text: str) -> str:
    for c in (
        "Does the output have an introduction, a body and a conclusion?",
        "How many of the expected sections are missing?",
        "Is the tone of the output appropriate for a report?",
        "Are the two summaries consistent with each other?",
    ):
        if c in text:
            return c
    return ""


def answer_dag_chat(request: dict[str, Any]) -> dict[str, Any] | None:
    """A reply to a DAG node request (recognised by its JSON schema name), else None."""
    import json

    rf = request.get("response_format") or {}
    name = (rf.get("json_schema") or {}).get("name") if isinstance(rf, dict) else None
    prompt = " ".join(str(m.get("content")) for m in request.get("messages", []) if isinstance(m, dict))
    m = CASE_ID.search(prompt)
    case_id = m.group(0) if m else "none"
    crit = _dag_criteria(prompt)
    if name == "TaskNodeOutput":
        which = (
            "summary A"
            if "first summary" in prompt
            else "summary B"
            if "second summary" in prompt
            else "sections"
        )
        return {"content": json.dumps({"output": f"[{case_id}] {which}: intro, body, conclusion"})}
    if name == "BinaryJudgementVerdict":
        return {"content": json.dumps({"reason": "scripted", "verdict": dag_binary(case_id, crit)})}
    if name == "NonBinaryJudgementVerdict":
        return {"content": json.dumps({"reason": "scripted", "verdict": dag_choice(case_id, crit)})}
    if name == "MetricScoreReason":
        return {"content": json.dumps({"reason": "scripted path reason"})}
    if name == "Winner":
        winner = arena_winner(prompt)
        return {"content": json.dumps({"winner": winner, "reason": f"{winner} gives the best answer."})}
    if name == "RewrittenReason":
        return {"content": json.dumps({"rewritten_reason": "rewritten"})}
    return None


def answer_dag_system_one(state: Any, questions: dict[str, Any]) -> dict[str, Any]:
    import json

    text = json.dumps(state)
    m = CASE_ID.search(text)
    case_id = m.group(0) if m else "none"
    out: dict[str, Any] = {}
    for qid, q in questions.items():
        crit = _dag_criteria(str(q.get("instructions")))
        if q["type"] == "noul":
            out[qid] = {"type": "noul", "noul": 0.9 if dag_binary(case_id, crit) else 0.1}
        else:
            chosen = dag_choice(case_id, crit)
            names = list(q["criteria"])
            probs = {n: (0.8 if n == chosen else 0.2 / (len(names) - 1)) for n in names}
            out[qid] = {"type": "choice", "choice": chosen, "confidence": 0.7, "probabilities": probs}
    return out


# -- ArenaGEval ----------------------------------------------------------------------------------------------------
FAKE_NAMES = ("Alice", "Bob", "Charlie", "Diana", "Eve", "Frank", "Grace", "Henry", "Iris", "Jack")


def arena_cases() -> list[dict[str, Any]]:
    """12 arenas (ids case-120..case-131) of 2 to 4 contestants; the one whose output carries "[best]" wins."""
    out = []
    for k in range(12):
        n = 2 + k % 3
        best = int(_u(f"arena{k}", "best") * n)
        out.append(
            {
                "id": f"case-{120 + k}",
                "input": f"[case-{120 + k}] Name a prime number above {10 * k}.",
                "contestants": [
                    {"name": f"model-{j}", "actual_output": f"Answer {j}" + (" [best]" if j == best else "")}
                    for j in range(n)
                ],
                "winner": f"model-{best}",
                "criteria": CRITERIA[k % 3],
            }
        )
    return out


def arena_winner(prompt: str) -> str:
    """The masked name whose material holds "[best]" (in 4.3.1's JSON layout or ours)."""
    import re

    spots = sorted(
        (m.start(), name)
        for name in FAKE_NAMES
        for m in re.finditer(rf'(?:"{name}"\s*:|Contestant {name}:)', prompt)
    )
    for i, (start, name) in enumerate(spots):
        end = spots[i + 1][0] if i + 1 < len(spots) else len(prompt)
        if "[best]" in prompt[start:end]:
            return name
    return spots[0][1] if spots else "Alice"
