"""A caller's own httpx ``http_client=`` reused across evaluate() calls (each on its own loop)."""

from __future__ import annotations

import httpx

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
