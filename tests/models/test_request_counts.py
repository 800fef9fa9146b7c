"""``llm_calls + retries`` equals the requests the server saw, for every request an OpenAI-compatible client sends:
its retries, and its own resends with a changed body (one rung down the structured-output ladder after a 400 that
blames ``response_format``; without ``temperature`` after a 400 that blames it). Counted by a loopback server."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from deepeval import evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig
from deepeval.metrics import BaseMetric
from deepeval.models import OpenAIModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.structured import a_generate_structured
from deepeval.models.usage import track_usage
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import Fault, OpenAIChatServer

KEY = "sk-test-COUNTS-0123456789"
GOOD = {"content": {"verdict": "yes"}}
NO_TEMPERATURE = {
    "error": {"message": "Unsupported value: 'temperature' does not support 0", "param": "temperature"}
}


class Verdict(BaseModel):
    verdict: str


def _model(srv: OpenAIChatServer, policy: RetryPolicy) -> OpenAIModel:
    return OpenAIModel(api_key=KEY, base_url=srv.base_url, retry_policy=policy)


def test_each_rung_of_the_ladder_is_a_counted_request(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(
        lambda req: GOOD, supported_formats=[]
    ) as srv:  # json_schema 400, json_object 400, text
        with track_usage() as usage:
            assert _model(srv, fast_policy).generate("q", Verdict)[0] == Verdict(verdict="yes")
        assert srv.counters.requests == 3
        assert (usage.llm_calls, usage.retries) == (3, 0)  # a resend on another rung is a call, not a retry


def test_the_structured_layer_counts_the_ladder_once_per_request(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: GOOD, supported_formats=["json_object"]) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage:
            result = asyncio.run(a_generate_structured(model, "q", Verdict))
        assert result == Verdict(verdict="yes")
        assert srv.counters.requests == 2 and usage.llm_calls + usage.retries == 2


def test_a_dropped_temperature_resend_is_counted(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.http_status(400, NO_TEMPERATURE)]) as srv:
        with track_usage() as usage:
            assert _model(srv, fast_policy).generate("q")[0] == "ok"
        assert srv.counters.requests == 2 and (usage.llm_calls, usage.retries) == (2, 0)


def test_retries_and_resends_together_add_up(fast_policy: RetryPolicy) -> None:
    # a 500 (retried), then the temperature refused (resent without it), then json_schema refused (next rung)
    faults = [Fault.server_error(500), Fault.http_status(400, NO_TEMPERATURE)]
    with OpenAIChatServer(lambda req: GOOD, supported_formats=["json_object"], faults=faults) as srv:
        with track_usage() as usage:
            assert _model(srv, fast_policy).generate("q", Verdict)[0].verdict == "yes"
        assert usage.retries == 1 and usage.llm_calls + usage.retries == srv.counters.requests == 4


class _OneJudgeCall(BaseMetric):
    """A user metric whose measure is one structured judge call."""

    def __init__(self, judge: OpenAIModel) -> None:
        self.judge, self.threshold = judge, 0.5

    async def a_measure(self, test_case: LLMTestCase, *args: object, **kwargs: object) -> float:
        verdict, _ = await self.judge.a_generate(str(test_case.input), Verdict)
        self.score = 1.0 if verdict.verdict == "yes" else 0.0
        self.success = self.score >= 0.5
        return self.score

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:
        return "OneJudgeCall"


def test_the_result_row_counts_what_the_server_saw(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: GOOD, supported_formats=[]) as srv:
        result = evaluate(
            [LLMTestCase(input="q", actual_output="a")],
            [_OneJudgeCall(_model(srv, fast_policy))],
            async_config=AsyncConfig(run_async=True),
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )
        row = result.test_results[0].metrics_data[0]
        assert row.error is None and srv.counters.requests == 3
        assert (row.llm_calls, row.retries) == (3, 0)
