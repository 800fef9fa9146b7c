"""Base URLs with a query string or user-info, and secrets a server echoes back.

Requests go to the right path with the base URL's query on every request and its user-info as an
``Authorization`` header; every known secret value (API keys passed as arguments, URL passwords, query tokens) is
scrubbed by value from errors, rows, reports, console output and the HTTP libraries' log records, whatever the
server quotes."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

import pytest
from pydantic import BaseModel

from deepeval import evaluate
from deepeval.errors import JudgeError, StructuredOutputError
from deepeval.evaluate import CacheConfig, DisplayConfig, EvaluationError
from deepeval.models import LocalModel, TypeSafeModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import NoulQuestion
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import Fault, OpenAIChatServer, SystemOneServer

ARG_KEY = "sk-argument-KEY-4711xyz"
QUERY_KEY = "QSECRET888zz"
URL_PASSWORD = "URLPASS777pw"
POLICY = RetryPolicy(max_retries=0, timeout=5)
TRANSPORTS = ["aiohttp", "httpx"]


class Verdict(BaseModel):
    verdict: str


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", request.param)
    return str(request.param)


def _with_query(url: str) -> str:
    return f"{url}?api-version=2024-06-01&api_key={QUERY_KEY}"


def test_base_url_query_is_sent_with_every_request_on_the_right_path(transport: str) -> None:
    with OpenAIChatServer(lambda req: "ok") as srv:
        model = LocalModel(
            model="m", base_url=_with_query(srv.base_url), api_key=ARG_KEY, retry_policy=POLICY
        )
        assert model.generate("q")[0] == "ok"
        assert model.generate("q2")[0] == "ok"
        assert (
            srv.counters.targets == [f"/v1/chat/completions?api-version=2024-06-01&api_key={QUERY_KEY}"] * 2
        )
        assert srv.counters.authorization == [f"Bearer {ARG_KEY}"] * 2


def test_system_one_base_url_query_is_sent_on_the_right_path(transport: str) -> None:
    with SystemOneServer() as srv:
        model = TypeSafeModel(
            api_key=ARG_KEY, base_url=f"{srv.base_url}/?token={QUERY_KEY}", retry_policy=POLICY
        )
        answers, _ = model.decide({"input": "x"}, {"q": NoulQuestion(instructions="Relevant?")})
        assert answers.nouls["q"].probability == 0.5
        assert srv.counters.targets == [f"/v1/systemone?token={QUERY_KEY}"]


def test_base_url_user_info_is_sent_as_a_basic_authorization_header(transport: str) -> None:
    with OpenAIChatServer(lambda req: "ok") as srv:
        url = srv.base_url.replace("http://", f"http://admin:{URL_PASSWORD}@")
        model = LocalModel(model="m", base_url=url, api_key=ARG_KEY, retry_policy=POLICY)
        assert model.generate("q")[0] == "ok"
        expected = base64.b64encode(f"admin:{URL_PASSWORD}".encode()).decode()
        assert srv.counters.authorization == [f"Basic {expected}"]
        assert srv.counters.targets == ["/v1/chat/completions"]


def test_key_echoed_in_a_reply_excerpt_is_redacted_from_the_structured_output_error(transport: str) -> None:
    # a server that quotes the request back (here: the key it received) instead of answering the schema
    with OpenAIChatServer(lambda req: f"cannot comply; you sent api_key={ARG_KEY}") as srv:
        model = LocalModel(model="m", base_url=srv.base_url, api_key=ARG_KEY, retry_policy=POLICY)
        with pytest.raises(StructuredOutputError) as info:
            model.generate("q", schema=Verdict)
    assert ARG_KEY not in str(info.value) and "api_key=***" in str(info.value)


def test_query_key_quoted_in_a_500_body_is_redacted_from_errors_rows_and_reports(
    transport: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deepeval.metrics import AnswerRelevancyMetric

    body = {
        "error": {"message": f"internal error handling /v1/chat/completions?api_key={QUERY_KEY} ({ARG_KEY})"}
    }
    with OpenAIChatServer() as srv:
        srv.script(Fault.http_status(500, body))
        model = LocalModel(
            model="m", base_url=_with_query(srv.base_url), api_key=ARG_KEY, retry_policy=POLICY
        )
        with pytest.raises(JudgeError) as direct:
            model.generate("q")
        srv.script(*[Fault.http_status(500, body)] * 5)
        with pytest.raises(EvaluationError) as info:
            evaluate(
                [LLMTestCase(input="What is 2 + 2?", actual_output="4")],
                [AnswerRelevancyMetric(model=model, eval_mode="llm")],
                display_config=DisplayConfig(
                    show_indicator=False, print_results=True, results_folder=str(tmp_path)
                ),
                cache_config=CacheConfig(write_cache=False),
            )
    row = info.value.result.test_results[0].metrics_data[0]
    assert (
        row.error is not None
        and "HTTP 500: internal error handling /v1/chat/completions?api_key=***" in row.error
    )
    reports = [p.read_text() for p in tmp_path.iterdir()]
    assert len(reports) == 2  # JSON and HTML
    shown = [str(direct.value), row.error or "", str(info.value), *reports, capsys.readouterr().out]
    for text in shown:
        assert QUERY_KEY not in text and ARG_KEY not in text
    assert (
        str(direct.value)
        == "judge m: HTTP 500: internal error handling /v1/chat/completions?api_key=*** (***)"
    )


def test_http_library_logs_carry_no_credentials(transport: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with OpenAIChatServer(lambda req: "ok") as srv:
        url = _with_query(srv.base_url).replace("http://", f"http://admin:{URL_PASSWORD}@")
        model = LocalModel(model="m", base_url=url, api_key=ARG_KEY, retry_policy=POLICY)
        assert model.generate("q")[0] == "ok"
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "127.0.0.1" in text  # the request was logged ...
    for secret in (
        QUERY_KEY,
        URL_PASSWORD,
        ARG_KEY,
        base64.b64encode(f"admin:{URL_PASSWORD}".encode()).decode(),
    ):
        assert secret not in text  # ... without its credentials
    assert json.dumps(text)  # plain text
