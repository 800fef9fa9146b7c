"""A caller's own ``http_client=`` (httpx, sync or async) on an OpenAI-compatible judge, reused across several
evaluate() calls (each runs on its own event loop)."""

from __future__ import annotations

import json

import httpx
import pytest

from _support.judge_replies import AR_ALL_RELEVANT
from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig, ErrorConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models import LocalModel
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import OpenAIChatServer, schema_responder

pytestmark = REGRESSION


REPLIES = AR_ALL_RELEVANT
_responder = schema_responder(REPLIES)


@pytest.mark.parametrize("client_kind", ["httpx", "sdk-aiohttp"])
def test_callers_async_http_client_serves_consecutive_evaluate_calls(client_kind: str) -> None:
    """Regression: with a caller's async http_client, later evaluate() calls lost their rows to a bare
    RuntimeError ('Event loop is closed' / 'attached to a different loop'). An httpx client now serves every run
    (a connection left from an earlier run's loop fails once and is retried); an aiohttp-based one cannot leave its
    first loop, so later runs get a clear, non-retried JudgeError (documented on OpenAIModel)."""
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
    if client_kind == "httpx":
        assert [(row.score, row.error) for row in rows] == [(1.0, None)] * 3
        return
    assert (rows[0].score, rows[0].error) == (1.0, None)
    for row in rows[1:]:
        assert row.score is None and row.retries == 0
        assert row.error is not None and "bound to the event loop it first ran on" in row.error


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


def test_sync_calls_go_through_the_callers_async_http_client() -> None:
    """Regression: generate() and measure(async_mode=False) ignored a caller's async httpx http_client= and went
    straight to base_url on a default client (0 requests through the caller's transport)."""
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


# ----------------------------------------------------------------------------------------------------------
# A caller's own httpx ``http_client=`` reused across evaluate() calls (each on its own loop).


def test_stale_connections_of_a_busy_earlier_run_do_not_exhaust_retries() -> None:
    """Regression: 20 stale keep-alive connections left in a caller's httpx client by a busy run used up the next run's
    retries (row lost)."""
    with OpenAIChatServer(_responder, latency=0.05) as srv:
        metric = AnswerRelevancyMetric(
            model=LocalModel(model="m", base_url=srv.base_url, http_client=httpx.AsyncClient()),
            eval_mode="llm",
        )
        display = DisplayConfig(show_indicator=False, print_results=False)
        errors = ErrorConfig(ignore_errors=True)
        first = evaluate(
            [LLMTestCase(input=f"Capital {i}?", actual_output="Paris is the capital.") for i in range(30)],
            [metric],
            display_config=display,
            error_config=errors,
        )
        assert first.errors == []
        assert srv.counters.max_in_flight >= 10  # many connections left in the client's pool
        second = evaluate(
            [LLMTestCase(input="Capital?", actual_output="Paris is the capital.")],
            [metric],
            display_config=display,
            error_config=errors,
        )
    row = second.test_results[0].metrics_data[0]
    assert (row.score, row.error) == (1.0, None)
