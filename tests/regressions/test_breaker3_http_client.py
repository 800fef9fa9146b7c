"""Breaker 3: a caller's own async ``http_client=`` on an OpenAI-compatible judge, used across several evaluate()
calls (each runs on its own event loop)."""

from __future__ import annotations

import json

import httpx
import pytest

from deepeval import evaluate
from deepeval.evaluate import DisplayConfig, ErrorConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models import LocalModel
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import OpenAIChatServer

REPLIES = {
    "StatementList": {"statements": ["Paris is the capital."]},
    "TernaryVerdicts": {"verdicts": [{"verdict": "yes", "reason": None}]},
    "ReasonReply": {"reason": "on topic"},
}


def _responder(req: dict) -> str:
    return json.dumps(REPLIES[req["response_format"]["json_schema"]["name"]])


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (http_client): with a caller's async http_client (httpx.AsyncClient() or the SDK's own "
        "openai.DefaultAioHttpClient()), later evaluate() calls lose their rows: httpx.AsyncClient: run 2 of 3 "
        "errors 'RuntimeError: Event loop is closed' (a keep-alive connection of run 1's loop is reused); "
        "DefaultAioHttpClient: runs 2 and 3 error ('Event loop is closed' / 'got Future attached to a different "
        "loop'); not JudgeErrors, not retried"
    ),
)
@pytest.mark.parametrize("client_kind", ["httpx", "sdk-aiohttp"])
def test_callers_async_http_client_serves_consecutive_evaluate_calls(client_kind: str) -> None:
    import openai

    with OpenAIChatServer(_responder) as srv:
        http_client = (
            httpx.AsyncClient(headers={"X-Org": "acme"})
            if client_kind == "httpx"
            else openai.DefaultAioHttpClient()
        )
        metric = AnswerRelevancyMetric(
            model=LocalModel(model="m", base_url=srv.base_url, http_client=http_client), eval_mode="llm"
        )
        rows = []
        for _ in range(3):
            result = evaluate(
                [LLMTestCase(input="Capital?", actual_output="Paris is the capital.")],
                [metric],
                display_config=DisplayConfig(show_indicator=False, print_results=False),
                error_config=ErrorConfig(ignore_errors=True),
            )
            rows.append(result.test_results[0].metrics_data[0])
    assert [(row.score, row.error) for row in rows] == [(1.0, None)] * 3


def _mock_reply(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    rf = body.get("response_format")
    content = json.dumps(REPLIES[rf["json_schema"]["name"]]) if rf else "mocked"
    return httpx.Response(
        200,
        json={
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        },
    )


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (http_client): sync calls ignore a caller's async http_client= (documented as passed to "
        "openai.AsyncOpenAI): LocalModel.generate() and measure() with async_mode=False go straight to base_url "
        "on a default client (JudgeError 'could not connect to http://127.0.0.1:9/v1', 0 requests through the "
        "caller's transport), so the caller's proxy/headers/TLS settings are bypassed; async calls use it"
    ),
)
def test_sync_calls_go_through_the_callers_async_http_client() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return _mock_reply(request)

    def model() -> LocalModel:
        client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        return LocalModel(model="m", base_url="http://127.0.0.1:9/v1", http_client=client, max_retries=0)

    assert model().generate("q")[0] == "mocked"
    metric = AnswerRelevancyMetric(model=model(), eval_mode="llm", async_mode=False)
    assert metric.measure(LLMTestCase(input="Capital?", actual_output="Paris is the capital.")) == 1.0
    assert len(seen) == 4  # one generate, three metric calls
