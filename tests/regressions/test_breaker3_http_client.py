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
        "BUG (http_client): with LocalModel(http_client=httpx.AsyncClient()), the second of three evaluate() calls "
        "loses its row: error 'RuntimeError: Event loop is closed' (a keep-alive connection of the first run's "
        "loop is reused; not a JudgeError, not retried); runs 1 and 3 score 1.0"
    ),
)
def test_callers_async_http_client_serves_consecutive_evaluate_calls() -> None:
    with OpenAIChatServer(_responder) as srv:
        http_client = httpx.AsyncClient(headers={"X-Org": "acme"})
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
