"""Smoke tests of the benchmark harness (bench/): the scripted judge's answers, the loopback judge's counters and
depth, the workloads, and one tiny end-to-end run of our evaluate() through the sealed worker. No deepeval 4.3.1
venv is needed; everything stays on 127.0.0.1."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench.judge_server import BENCH_API_KEY, BenchJudge  # noqa: E402
from bench.workloads import conversations, rag_cases  # noqa: E402

from bench import judge_answers as ja  # noqa: E402


def _chat(content: str, schema: dict | None = None) -> ja.ChatAnswer:
    payload: dict = {"model": "m", "messages": [{"role": "user", "content": content}]}
    if schema is not None:
        payload["response_format"] = {"type": "json_schema", "json_schema": {"name": "X", "schema": schema}}
    return ja.answer_chat(payload)


def test_decisions_are_pure_functions_of_the_text() -> None:
    assert ja.relevance("The sky is blue.") == ja.relevance("  the SKY is   blue. ")
    counts = {v: 0 for v in ("yes", "no", "borderline")}
    for i in range(1000):
        counts[ja.relevance(f"statement number {i}")] += 1
    assert 640 <= counts["yes"] <= 760 and 60 <= counts["borderline"] <= 140 and 140 <= counts["no"] <= 260
    assert ja.fact_pairs("Sure. My home city is Porto. Actually my name is Emily Chen.") == {
        "Home City": "Porto",
        "Name": "Emily Chen",
    }
    assert ja.forgets("Could you remind me of your home city?", "{'Home City': 'Porto'}") is True
    assert ja.forgets("Could you remind me of your job?", "{'Home City': 'Porto'}") is False


def test_deepeval_style_prompts_get_the_right_shapes() -> None:
    st = _chat(
        "Given the text, breakdown and generate a list of statements presented.\n\nText:\nA one. B two!\n\nJSON:"
    )
    assert (st.task, st.content) == ("deepeval.ar.statements", {"statements": ["A one.", "B two!"]})
    statements = ["x is y.", "p is q.", "z."]
    ver = _chat(
        "For the provided list, determine whether each statement is relevant to address the input.\n"
        f"Statements:\n{statements!r}\n\nJSON:"
    )
    assert ver.task == "deepeval.ar.verdicts"
    assert [v["verdict"] for v in ver.content["verdicts"]] == [ja.relevance(s) for s in statements]
    kr = _chat(
        "extract **only the factual information**\nLatest User Message:\nSure. My job is chef.\n\nJSON:"
    )
    assert kr.content == {"data": {"Job": "chef"}}
    verdict = _chat(
        "**contradicts** or **forgets**\nLLM message:\nCould you remind me of your job?\n\n"
        "Previous Knowledge:\n[{'Job': 'chef'}]\n\nJSON:"
    )
    assert verdict.content["verdict"] == "yes"


def test_our_prompts_are_recognised_from_schema_and_markers() -> None:
    from deepeval.metrics._engine.extractor import Knowledge, Statements, statements_prompt
    from deepeval.metrics.knowledge_retention.prompts import KnowledgeRetentionTemplate
    from deepeval.models.llms.response_format import strict_schema

    st = _chat(statements_prompt("One. Two? Three!"), strict_schema(Statements))
    assert st.content == {"statements": ["One.", "Two?", "Three!"]}
    facts = _chat(
        KnowledgeRetentionTemplate.extract_facts(
            "Actually, my name is Emily Chen.",
            [("user", "Sure. My name is Laura Rossi."), ("assistant", "Thanks, Laura.")],
        ),
        strict_schema(Knowledge),
    )
    assert facts.task == "ours.facts"
    assert facts.content == {"data": {"name": "Emily Chen"}, "supersedes": ["name"]}
    first = _chat(
        KnowledgeRetentionTemplate.extract_facts("My name is Laura Rossi.", []), strict_schema(Knowledge)
    )
    assert first.content == {"data": {"name": "Laura Rossi"}, "supersedes": []}
    unknown = _chat(
        "Tell me a joke", {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    )
    assert (unknown.task, unknown.content) == ("fallback.schema", {"n": 0})


def test_system_one_answers_follow_the_wire_format() -> None:
    answers = ja.answer_system_one(
        {"x": 1},
        {
            "a": {"type": "noul", "instructions": {"statement": "The sky is blue.", "question": "relevant?"}},
            "b": {"type": "score", "instructions": "how much?", "criteria": ["none", "some", "most", "all"]},
            "c": {"type": "choice", "criteria": {"red": None, "blue": "b"}},
        },
    )
    assert answers["a"] == {"type": "noul", "noul": ja._P[ja.relevance("The sky is blue.")]}
    assert answers["b"]["legend"] == {"0": "none", "1": "some", "2": "most", "3": "all"}
    assert answers["b"]["score"] == pytest.approx(0.05 * 0 + 0.05 * 1 + 0.2 * 2 + 0.7 * 3)
    assert answers["c"]["choice"] == "red" and sum(answers["c"]["probabilities"].values()) == pytest.approx(
        1.0
    )


def test_loopback_judge_counts_and_measures_depth() -> None:
    with BenchJudge(latency=0.05) as judge:
        env = judge.env()
        headers = {"Authorization": f"Bearer {BENCH_API_KEY}"}
        body = {"model": "bench-judge", "messages": [{"role": "user", "content": "hello there"}]}
        with httpx.Client(timeout=5) as client:
            for _ in range(2):  # two dependent (sequential) calls
                r = client.post(env["LOCAL_MODEL_BASE_URL"] + "/chat/completions", json=body, headers=headers)
                assert r.status_code == 200
            s1 = {
                "model": "jev-latest",
                "state": "s",
                "questions": {"q": {"type": "noul", "instructions": {"k": 1}}},
            }
            r = client.post(env["TYPESAFE_BASE_URL"] + "/v1/systemone", json=s1, headers=headers)
            assert r.status_code == 200 and r.json()["answers"]["q"]["type"] == "noul"
            bad = client.post(
                env["TYPESAFE_BASE_URL"] + "/v1/systemone", json={"model": "jev-latest"}, headers=headers
            )
            assert bad.status_code == 422
        stats = judge.stats()
    assert (stats["llm_calls"], stats["s1_requests"], stats["s1_failed"]) == (2, 2, 1)
    assert stats["llm_tokens_in"] == 4 and stats["tasks"]["llm:fallback.text"] == 2
    assert stats["depth"] == 4 and stats["rejected"] == 0


def test_workloads_are_deterministic_and_shaped() -> None:
    a, b = rag_cases(6), rag_cases(6)
    assert a == b and [len(c["retrieval_context"]) for c in a] == [3, 4, 5, 3, 4, 5]
    convs = conversations(3, 20)
    assert convs == conversations(3, 20)
    assert all(len(c["turns"]) == 20 and c["turns"][0]["role"] == "user" for c in convs)
    for c in convs:
        for i in c["attrition_turns"]:
            assert "remind me of your" in c["turns"][i]["content"]
    with pytest.raises(ValueError):
        conversations(1, 5)


def test_worker_runs_our_evaluate_sealed(tmp_path: Path) -> None:
    from bench.harness import run_worker

    with BenchJudge(latency=0.01) as judge:
        job = {
            "mode": "llm",
            "phases": [
                {"kind": "rag", "cases": rag_cases(2), "metrics": ["AnswerRelevancy"], "max_concurrent": 4}
            ],
        }
        result = run_worker("ours", job, judge.env(), timeout=60)
        stats = judge.stats()
    assert result["error"] is None, result.get("traceback")
    assert result["net_refused"] == []
    # this checkout's deepeval, not whatever the venv has installed (an editable install of another checkout)
    assert result["deepeval_file"] == str(REPO / "src" / "deepeval" / "__init__.py")
    (phase,) = result["phases"]
    assert len(phase["client_calls"]) == 6  # our client stamped every request it sent
    (slot,) = phase["metrics"].values()
    assert len(slot["scores"]) == 2 and slot["n_errors"] == 0
    assert stats["unrecognised"] == 0 and stats["llm_calls"] == 6  # statements, verdicts, reason per case
    json.dumps(result)


def test_trace_reconstructs_the_critical_path_and_splits_the_wall_time() -> None:
    from bench.critical_path import chain, requests_of, summary, trace
    from bench.judge_server import Event

    # two test cases, latency 0.2: case A's second call leaves 0.05 s after its first reply, case B's first call
    # leaves late (0.1 s) and its second right after; the run ends 0.02 s after the last reply
    events = [
        Event(t=0.21, server="llm", task="a1", start=0.01),
        Event(t=0.31, server="llm", task="b1", start=0.11),
        Event(t=0.46, server="llm", task="a2", start=0.26),
        Event(t=0.515, server="llm", task="b2", start=0.315),
    ]
    reqs = requests_of(events, 0.2)
    assert [r.task for r in chain(reqs)] == ["b1", "b2"]
    tr = trace(events, t0=0.0, t1=0.535, latency=0.2)
    assert tr["depth"] == 2 and tr["requests"] == 4
    assert tr["startup"] == pytest.approx(0.11) and tr["gaps"] == pytest.approx(0.005)
    assert tr["latency"] == pytest.approx(0.4) and tr["server"] == pytest.approx(0.0, abs=1e-9)
    assert tr["finish"] == pytest.approx(0.02)
    parts = tr["startup"] + tr["latency"] + tr["server"] + tr["gaps"] + tr["finish"]
    assert parts == pytest.approx(tr["wall"])  # the parts add up to the wall time exactly
    assert tr["first_start"] == pytest.approx(0.01)
    assert "2 hops" in summary(tr, 0.4) and "llm:b1(+110, 200)" in summary(tr, 0.4)
    # an unknown start is the reply time minus the latency
    assert requests_of([Event(t=1.0, server="s1", task="decide")], 0.2)[0].start == pytest.approx(0.8)
    assert trace([], 0.0, 0.3, 0.2)["depth"] == 0
    # the client's own stamps (left, back) make the same trace from the client's side
    from bench.critical_path import client_events

    client = trace(client_events([(0.1, 0.32, "llm"), (0.33, 0.55, "llm")]), 0.0, 0.56, 0.2)
    assert (
        client["depth"] == 2
        and client["gaps"] == pytest.approx(0.01)
        and client["startup"] == pytest.approx(0.1)
    )


def test_server_stamps_when_it_started_on_each_request() -> None:
    with BenchJudge(latency=0.05) as judge:
        headers = {"Authorization": f"Bearer {BENCH_API_KEY}"}
        body = {"model": "bench-judge", "messages": [{"role": "user", "content": "hello there"}]}
        with httpx.Client(timeout=5) as client:
            client.post(judge.env()["LOCAL_MODEL_BASE_URL"] + "/chat/completions", json=body, headers=headers)
        (event,) = judge._events(None)
    assert event.start is not None and event.t - event.start >= 0.05
