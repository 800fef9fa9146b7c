"""Hybrid AnswerRelevancy against the real System One wire format: TypeSafeModel talking to the loopback
/v1/systemone server (127.0.0.1 only)."""

from __future__ import annotations

import pytest

from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM

from .helpers import calls_by_schema, router

typesafe = pytest.importorskip("deepeval.models.system_one.typesafe")
servers = pytest.importorskip("deepeval.testing.servers")

STATEMENTS = ["Refunds are available for 30 days.", "Our logo is blue."]
CASE = LLMTestCase(input="Can I return shoes that don't fit?", actual_output=" ".join(STATEMENTS))


def responder(state: object, questions: dict[str, dict[str, object]]) -> dict[str, float]:
    return {qid: (0.9 if "Refunds" in str(q["instructions"]) else 0.1) for qid, q in questions.items()}


def test_hybrid_decisions_over_loopback_wire() -> None:
    with servers.SystemOneServer(responder, api_key="ts-key-123") as srv:
        jev = typesafe.TypeSafeModel(
            model="jev-latest",
            api_key="ts-key-123",
            base_url=srv.base_url,
            max_retries=0,
            cost_per_input_token=0.042e-6,  # a self-hosted server's price is not known unless set
        )
        llm = ScriptedLLM(router(statements=STATEMENTS, verdicts=["no", "no"]))
        metric = AnswerRelevancyMetric(model=llm, system_one_model=jev, eval_mode="hybrid")
        assert metric.measure(CASE) == 0.5
    assert calls_by_schema(llm) == {
        "Statements": 1,
        "AnswerRelevancyScoreReason": 1,
    }  # System One made both decisions
    assert metric.confidence == pytest.approx(0.8)
    assert metric.evaluation_model == "scripted-llm + jev-latest (jev-2026-10-01)"
    assert metric.evaluation_cost is not None and metric.evaluation_cost > 0
    assert metric.system_one_fallback_reason is None
    # the server's request id (x-typesafe-request-id) is in the verbose logs
    assert "System One request ids:\nreq-loopback-1" in (metric.verbose_logs or "")


def test_hybrid_auth_failure_over_wire_falls_back_without_leaking_the_key() -> None:
    with servers.SystemOneServer(responder, api_key="ts-key-123") as srv:
        jev = typesafe.TypeSafeModel(
            model="jev-latest", api_key="ts-WRONG-key-999", base_url=srv.base_url, max_retries=0
        )
        llm = ScriptedLLM(router(statements=STATEMENTS, verdicts=["yes", "no"]))
        metric = AnswerRelevancyMetric(model=llm, system_one_model=jev, eval_mode="hybrid")
        assert metric.measure(CASE) == 0.5
    reason = metric.system_one_fallback_reason
    assert reason is not None and "auth" in reason and "2 of 2 decision(s) made by the LLM" in reason
    assert "ts-WRONG-key-999" not in reason
    assert calls_by_schema(llm)["Verdicts"] == 1


def _jev(srv: object, **kw: object) -> object:
    return typesafe.TypeSafeModel(base_url=srv.base_url, max_retries=0, **kw)  # type: ignore[attr-defined]


def test_server_refusing_a_large_input_falls_back_to_the_llm() -> None:
    # a ~6,800-character input over a self-hosted server's budget: Jev's 400 {"detail": {"error_type":
    # "max_tokens_exceeded"}}; deepeval 4.3.1 falls back to the LLM here, and so do we (the metric used to raise)
    case = LLMTestCase(
        input="Can I return shoes? " + "Details follow. " * 424, actual_output=" ".join(STATEMENTS)
    )
    assert 6_700 < len(case.input) < 6_900
    with servers.SystemOneServer(responder, max_request_tokens=2_000) as srv:
        llm = ScriptedLLM(router(statements=STATEMENTS, verdicts=["yes", "no"]))
        metric = AnswerRelevancyMetric(model=llm, system_one_model=_jev(srv), eval_mode="hybrid")
        assert metric.measure(case) == 0.5
        assert srv.counters.requests == 1 and srv.counters.replied_ok == 0
    reason = metric.system_one_fallback_reason
    assert reason is not None and "context_limit" in reason and "max_tokens_exceeded" in reason
    assert "2 of 2 decision(s) made by the LLM" in reason and "request id req-loopback-1" in reason
    assert calls_by_schema(llm)["Verdicts"] == 1


def test_seventy_statements_are_split_at_the_question_cap() -> None:
    # 70 questions in one request: avrik-server refuses more than 64. Ours sends 64 + 6, and learns a lower cap
    statements = [f"Refunds rule number {i}." for i in range(70)]
    case = LLMTestCase(input="Can I return shoes that don't fit?", actual_output=" ".join(statements))
    for server_cap, requests in ((64, 2), (20, 8)):
        with servers.SystemOneServer(responder, max_questions=server_cap) as srv:
            llm = ScriptedLLM(router(statements=statements))
            metric = AnswerRelevancyMetric(model=llm, system_one_model=_jev(srv), eval_mode="hybrid")
            assert metric.measure(case) == 1.0
            assert srv.counters.requests == requests
        assert metric.system_one_fallback_reason is None and "Verdicts" not in calls_by_schema(llm)
        assert metric.score_breakdown is not None
        assert metric.score_breakdown["decided_by_system_one"] == 70


def test_only_the_verdicts_a_refused_request_held_go_to_the_llm() -> None:
    # one statement per request; the server refuses the one holding the long statement as too large
    statements = ["Refunds are available for 30 days.", "Our logo is blue. " + "It really is blue. " * 200]
    case = LLMTestCase(input="Can I return shoes that don't fit?", actual_output=" ".join(statements))
    with servers.SystemOneServer(responder, max_request_tokens=500) as srv:
        llm = ScriptedLLM(router(statements=statements, verdicts=["no"]))
        metric = AnswerRelevancyMetric(
            model=llm, system_one_model=_jev(srv, max_questions=1), eval_mode="hybrid"
        )
        assert metric.measure(case) == 0.5
        assert srv.counters.requests == 2 and srv.counters.replied_ok == 1
    reason = metric.system_one_fallback_reason
    assert reason is not None and "1 of 2 decision(s) made by the LLM" in reason
    assert "the server refused the request that held 1" in reason and "max_tokens_exceeded" in reason
    assert metric.score_breakdown is not None
    assert metric.score_breakdown["decided_by_system_one"] == metric.score_breakdown["decided_by_llm"] == 1
