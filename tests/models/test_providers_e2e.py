"""AnswerRelevancyMetric end to end, in llm and hybrid mode, with provider judges on their loopback wire servers
(the statements, verdicts and reason come over the provider's own API)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from _support.providers import KEY, PROVIDERS, Provider, running
from deepeval import evaluate
from deepeval.evaluate.configs import CacheConfig, DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedSystemOne
from deepeval.testing.servers import schema_responder

CASE = LLMTestCase(
    input="What is the capital of France?", actual_output="Paris is the capital. Our shoes are red."
)
REPLIES = {
    "Statements": {"statements": ["Paris is the capital.", "Our shoes are red."]},
    "Verdicts": {
        "verdicts": [{"verdict": "yes", "reason": None}, {"verdict": "no", "reason": "about shoes"}]
    },
    "AnswerRelevancyScoreReason": {"reason": "half of the answer is about shoes"},
}
E2E = [p for p in PROVIDERS if getattr(p, "id", getattr(p, "values", [None])[0]) is not None]


def _structured(request: dict[str, Any]) -> Any:
    """The reply for the schema asked for: named in ``response_format`` (JSON schema rungs), else found in the
    prompt's schema instruction (JSON mode: DeepSeek, Kimi)."""
    fmt = request.get("response_format") or {}
    if fmt.get("type") == "json_object":
        text = str(request["messages"][-1]["content"])
        return json.dumps(next(v for k, v in REPLIES.items() if f'"title":"{k}"' in text))
    return schema_responder(REPLIES)(request)


def _provider(p: Any) -> Provider:
    return p if isinstance(p, Provider) else p.values[0]


@pytest.mark.parametrize("param", E2E, ids=lambda p: _provider(p).id)
def test_answer_relevancy_llm_mode(param: Any) -> None:
    provider = _provider(param)
    with running(provider) as (server, judge):
        server.responder = _structured
        metric = AnswerRelevancyMetric(model=judge, eval_mode="llm", threshold=0.5)
        score = metric.measure(CASE)
    assert score == pytest.approx(0.5)
    assert metric.reason == "half of the answer is about shoes"
    assert metric.success is True
    assert metric.evaluation_model == judge.get_model_name()
    assert server.counters.requests == 3  # statements, verdicts, reason
    if provider.price is not None:
        expected = (
            server.counters.input_tokens * provider.price[0]
            + server.counters.output_tokens * provider.price[1]
        )
        assert metric.evaluation_cost == pytest.approx(expected)


@pytest.mark.parametrize("param", E2E, ids=lambda p: _provider(p).id)
def test_answer_relevancy_hybrid_mode(param: Any) -> None:
    provider = _provider(param)
    s1 = ScriptedSystemOne(lambda state, qs: dict(zip(qs, (0.95, 0.04), strict=False)))
    with running(provider) as (server, judge):
        server.responder = _structured
        metric = AnswerRelevancyMetric(model=judge, system_one_model=s1, eval_mode="hybrid")
        score = metric.measure(CASE)
    assert score == pytest.approx(0.5)
    assert s1.call_count == 1
    assert server.counters.requests == 2  # statements and reason; the verdicts are System One's
    assert metric.evaluation_model == f"{judge.get_model_name()} + scripted-system-one"


@pytest.mark.parametrize("provider_id", ["ollama", "anthropic"])
def test_evaluate_rows_carry_usage_and_no_key(provider_id: str, tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == provider_id)
    with running(provider) as (server, judge):
        server.responder = _structured
        result = evaluate(
            [CASE],
            [AnswerRelevancyMetric(model=judge, eval_mode="llm")],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False),
        )
    (row,) = result.test_results[0].metrics_data
    assert row.score == pytest.approx(0.5) and row.error is None
    assert row.llm_calls == 3 and row.retries == 0
    dumped = json.dumps(
        result.model_dump(mode="json") if hasattr(result, "model_dump") else str(result), default=str
    )
    assert KEY not in dumped


@pytest.mark.parametrize(
    ("env", "server_id", "name"),
    [
        (
            {
                "USE_ANTHROPIC_MODEL": "1",
                "ANTHROPIC_MODEL_NAME": "claude-sonnet-4-5",
                "ANTHROPIC_API_KEY": KEY,
            },
            "anthropic",
            "claude-sonnet-4-5 (Anthropic)",
        ),
        (
            {"USE_LOCAL_MODEL": "1", "LOCAL_MODEL_API_KEY": "ollama", "OLLAMA_MODEL_NAME": "llama3.1"},
            "ollama",
            "llama3.1 (Ollama)",
        ),
    ],
)
def test_the_judge_comes_from_the_settings(
    env: dict[str, str], server_id: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``deepeval set-anthropic`` / ``set-ollama`` leave behind selects the judge of a metric built with no
    ``model=``: the plan names it before any call, and the measure goes to its server."""
    from deepeval.models.resolve import clear_shared_clients

    provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == server_id)
    kw = {} if server_id == "ollama" else {"api_key": KEY}
    with provider.server(**kw) as server:
        server.responder = _structured
        monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        url_key = "LOCAL_MODEL_BASE_URL" if server_id == "ollama" else "ANTHROPIC_BASE_URL"
        monkeypatch.setenv(url_key, server.root_url)
        clear_shared_clients()
        metric = AnswerRelevancyMetric()
        assert metric.evaluation_model == name  # named from the plan, before any call
        assert metric.measure(CASE) == pytest.approx(0.5)
        assert server.counters.requests == 3
        clear_shared_clients()


def test_hybrid_with_the_embedded_system_one_judge_on_ollama() -> None:
    """The default hybrid pairing: a provider LLM extracts the statements, the embedded offline judge decides them."""
    provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == "ollama")
    with running(provider) as (server, judge):
        server.responder = _structured
        metric = AnswerRelevancyMetric(model=judge, eval_mode="hybrid", system_one_model="embedded")
        score = metric.measure(CASE)
    # the shoes are not relevant; the encoder alone (reader off in tests) is unsure of the terse capital
    # statement, and its calibrated weight (share_weight) counts it in part: near, not at, 1/2
    assert [v.verdict for v in metric.verdicts] == ["unsure", "no"]
    assert 0.4 < score < 0.6
    assert server.counters.requests == 2
