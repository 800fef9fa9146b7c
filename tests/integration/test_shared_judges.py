"""Metrics that resolve their System One judge from settings share one client, so evaluate() merges their
system_one questions on a test case into one request over the real /v1/systemone wire format (loopback)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deepeval.evaluate import CacheConfig, DisplayConfig, evaluate
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.models.resolve import clear_shared_clients, resolve_system_one
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import SystemOneServer, wire_score


def responder(state: object, questions: dict[str, dict[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for qid, q in questions.items():
        out[qid] = wire_score([0.0, 0.0, 1.0, 0.0]) if q["type"] == "score" else 0.9
    return out


@pytest.fixture
def typesafe_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("TYPESAFE_API_KEY", "ts-secret-4242")
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_RETRIES", "0")
    clear_shared_clients()
    yield
    clear_shared_clients()


def test_settings_resolved_system_one_is_shared_and_batched(
    typesafe_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SystemOneServer(responder, api_key="ts-secret-4242") as srv:
        monkeypatch.setenv("TYPESAFE_BASE_URL", srv.base_url)
        assert resolve_system_one(None) is resolve_system_one(None)
        cases = [
            LLMTestCase(
                input=f"question {i}?", actual_output="An answer.", retrieval_context=["a node", "b node"]
            )
            for i in range(3)
        ]
        metrics = [
            AnswerRelevancyMetric(eval_mode="system_one"),
            ContextualRelevancyMetric(eval_mode="system_one"),
        ]
        result = evaluate(
            cases,
            metrics,
            display_config=DisplayConfig(print_results=False, show_indicator=False),
            cache_config=CacheConfig(write_cache=False),
        )
        assert srv.counters.requests == 3  # one request per test case for both metrics
    rows = [m for r in result.test_results for m in r.metrics_data]
    assert len(rows) == 6 and all(m.error is None for m in rows)
    # (2*0.9 + 0.9 + 2/3) / 4 for every metric
    assert all(m.score == pytest.approx((2 * 0.9 + 0.9 + 2 / 3) / 4) for m in rows)
    assert all("ts-secret-4242" not in str(m.to_dict()) for m in rows)
