"""A server that echoes the API key it was sent, in part or encoded, in an error body, a header or a reply field:
none of those forms reaches exceptions, result rows, the cache, reports or log records, for both client families
(OpenAI-compatible chat completions and TypeSafe's /v1/systemone), on both HTTP transports. Real loopback servers;
the key is taken by the server from the request's Authorization header."""

from __future__ import annotations

import base64
import logging
import sqlite3
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.errors import JudgeError, SystemOneError
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models import LocalModel, TypeSafeModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import NoulQuestion
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import (
    Fault,
    OpenAIChatServer,
    SystemOneReply,
    SystemOneServer,
    wire_choice,
    wire_noul,
    wire_score,
)

# characters that percent-encoding and the two base64 alphabets all treat differently
KEY = "sk-echo/Key+4711=abcDEF0987xyz"
POLICY = RetryPolicy(max_retries=0, timeout=5)

#: name -> how the server quotes the credential it received
FORMS: dict[str, Callable[[str], str]] = {
    "prefix of 8": lambda k: k[:8],
    "suffix of 9": lambda k: k[-9:],
    "middle run of 12": lambda k: k[6:18],
    "base64": lambda k: base64.b64encode(k.encode()).decode(),
    "base64 url-safe": lambda k: base64.urlsafe_b64encode(k.encode()).decode(),
    "base64 of user:key": lambda k: base64.b64encode(f"client:{k}".encode()).decode(),
    "percent-encoded": lambda k: urllib.parse.quote(k, safe=""),
    "percent-encoded, lower-case hex": lambda k: urllib.parse.quote(k, safe="").replace("%2F", "%2f"),
    "form-encoded": lambda k: urllib.parse.quote_plus(k),
}


@pytest.fixture(params=["aiohttp", "httpx"])
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", request.param)
    return str(request.param)


def _confident(question: dict[str, Any]) -> Any:
    """A confident wire answer of the question's type (the last option / level)."""
    criteria = question.get("criteria")
    if question["type"] == "choice":
        options = list(criteria)
        return wire_choice({o: 0.9 if o == options[-1] else 0.1 / (len(options) - 1) for o in options})
    if question["type"] == "score":
        return wire_score([0.0] * (len(criteria) - 1) + [1.0], legend=criteria)
    return wire_noul(0.9)


def _leaks(text: str, form: str) -> bool:
    """Whether ``text`` still shows the echoed form, or any 8 characters of the key in a row."""
    return form in text or any(KEY[i : i + 8] in text for i in range(len(KEY) - 7))


@pytest.mark.parametrize("name", sorted(FORMS))
def test_openai_compatible_error_carries_no_form_of_an_echoed_key(
    name: str, transport: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    form = FORMS[name](KEY)
    seen: list[str] = []

    def echo(credential: str) -> tuple[Any, dict[str, str]]:
        seen.append(credential)
        quoted = FORMS[name](credential)
        return {"error": {"message": f"rejected credential {quoted} (retry later)"}}, {"X-Echo": quoted}

    with OpenAIChatServer() as srv:
        srv.script(Fault.echo_credential(503, echo))
        model = LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=POLICY)
        with pytest.raises(JudgeError) as info:
            model.generate("q")
    assert seen == [KEY]  # the server did receive the key, and quoted it
    message = str(info.value)
    assert message.startswith("judge m: HTTP 503: rejected credential ") and "(retry later)" in message
    assert "***" in message and not _leaks(message, form)
    assert info.value.kind == "server" and info.value.retryable
    assert not _leaks("\n".join(r.getMessage() for r in caplog.records), form)


@pytest.mark.parametrize("name", sorted(FORMS))
def test_system_one_error_carries_no_form_of_an_echoed_key(name: str, transport: str) -> None:
    form = FORMS[name](KEY)

    def echo(credential: str) -> tuple[Any, dict[str, str]]:
        return {"detail": f"key {FORMS[name](credential)} is not valid"}, {"WWW-Authenticate": credential}

    with SystemOneServer() as srv:
        srv.script(Fault.echo_credential(401, echo))
        model = TypeSafeModel(api_key=KEY, base_url=srv.base_url, retry_policy=POLICY)
        with pytest.raises(SystemOneError) as info:
            model.decide("state", {"q": NoulQuestion(instructions="Is it?")})
    message = str(info.value)
    assert (
        message.startswith("judge jev-latest: HTTP 401 (check the API key): key ")
        and "is not valid" in message
    )
    assert "***" in message and not _leaks(message, form)
    assert info.value.kind == "auth" and info.value.status_code == 401


def test_a_key_cut_by_the_excerpt_limit_leaves_no_piece_behind(transport: str) -> None:
    # the key starts 5 characters before the 80-character excerpt of a non-JSON body ends: redaction runs first
    body = "x" * 75 + KEY + " trailing text"
    with OpenAIChatServer() as srv:
        srv.script(Fault.non_json(body))
        model = LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=POLICY)
        with pytest.raises(JudgeError) as info:
            model.generate("q")
    assert "is not JSON" in str(info.value) and KEY[:5] not in str(info.value)
    assert "x" * 75 + "***" in str(info.value)


def test_a_key_echoed_in_a_successful_reply_stays_out_of_rows_cache_and_reports(
    transport: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the server names its resolved model with the base64 of the key it was sent: that name becomes the row's
    # evaluation_model, which is printed, written to the reports and stored in the cache
    monkeypatch.chdir(tmp_path)
    echoed = base64.b64encode(KEY.encode()).decode()

    def responder(state: Any, questions: dict[str, Any]) -> SystemOneReply:
        answers = {qid: _confident(q) for qid, q in questions.items()}
        return SystemOneReply(answers=answers, model=f"jev-{echoed}")

    with SystemOneServer(responder) as srv:
        s1 = TypeSafeModel(api_key=KEY, base_url=srv.base_url, retry_policy=POLICY)
        result = evaluate(
            [LLMTestCase(input="What is the capital of France?", actual_output="Paris. It is in Europe.")],
            [AnswerRelevancyMetric(eval_mode="system_one", system_one_model=s1)],
            display_config=DisplayConfig(show_indicator=False, print_results=True, results_folder="out"),
            cache_config=CacheConfig(write_cache=True),
        )
    row = result.test_results[0].metrics_data[0]
    assert row.error is None and row.score is not None and row.evaluation_model is not None
    assert "jev-***" in row.evaluation_model
    reports = [p.read_text() for p in (tmp_path / "out").iterdir()]
    assert len(reports) == 2
    with sqlite3.connect(tmp_path / ".deepeval" / "cache.sqlite") as db:
        stored = "\n".join(str(v) for r in db.execute("SELECT * FROM sqlite_master").fetchall() for v in r)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        rows = "\n".join(str(r) for t in tables for r in db.execute(f"SELECT * FROM {t}"))
    assert "jev-***" in rows
    for text in (row.evaluation_model, *reports, rows, stored, capsys.readouterr().out):
        assert not _leaks(text, echoed)
