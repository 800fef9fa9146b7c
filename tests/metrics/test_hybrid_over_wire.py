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
