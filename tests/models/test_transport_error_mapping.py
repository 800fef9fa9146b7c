"""The one transport-error mapping (``deepeval.models.http.errors``) that both client families call: each failure
maps to one kind whichever family met it, and the places where the two used to disagree (a server's detail cut
before it was redacted, token counts that do not fit an int) now follow one rule."""

from __future__ import annotations

import socket

import httpx
import openai
import pytest

from deepeval.errors import ErrorKind, JudgeError, SystemOneError
from deepeval.models import LocalModel, TypeSafeModel
from deepeval.models.http.errors import int_or_none, read_json, status_error, transport_error
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import NoulQuestion
from deepeval.testing.servers import Fault, OpenAIChatServer, SystemOneServer

KEY = "sk-mapping-KEY-0451abcdef"
POLICY = RetryPolicy(max_retries=0, timeout=5)
_REQUEST = httpx.Request("POST", "http://127.0.0.1:9/v1/x")


def _map(exc: BaseException, error_cls: type[JudgeError] = JudgeError) -> JudgeError | None:
    return transport_error(
        exc, label="judge m", model="m", base_url="http://127.0.0.1:9", timeout=7.0, error_cls=error_cls
    )


def _chained(exc: BaseException, cause: BaseException) -> BaseException:
    exc.__cause__ = cause
    return exc


@pytest.mark.parametrize(
    ("exc", "kind", "message"),
    [
        (
            openai.APITimeoutError(_REQUEST),
            "timeout",
            "judge m: no reply within 7 s (DEEPEVAL_JUDGE_TIMEOUT)",
        ),
        (
            httpx.ReadTimeout("slow", request=_REQUEST),
            "timeout",
            "judge m: no reply within 7 s (DEEPEVAL_JUDGE_TIMEOUT)",
        ),
        (
            _chained(openai.APITimeoutError(_REQUEST), ConnectionRefusedError(111, "refused")),
            "connection",
            "judge m: could not connect to http://127.0.0.1:9 (ConnectionRefusedError)",
        ),
        (
            _chained(httpx.ConnectTimeout("t", request=_REQUEST), ConnectionResetError(104, "reset")),
            "connection",
            "judge m: could not connect to http://127.0.0.1:9 (ConnectionResetError)",
        ),
        (
            _chained(openai.APIConnectionError(request=_REQUEST), httpx.ConnectError("no")),
            "connection",
            "judge m: could not connect to http://127.0.0.1:9 (ConnectError)",
        ),
        (
            httpx.ConnectError("no", request=_REQUEST),
            "connection",
            "judge m: could not connect to http://127.0.0.1:9 (ConnectError)",
        ),
        (
            ValueError(f"bad header in http://h/v1?api_key={KEY}"),
            "bad_request",
            "judge m: the request could not be sent (ValueError: bad header in http://h/v1)",
        ),
        (
            httpx.DecodingError("bad gzip", request=_REQUEST),
            "server",
            "judge m: the server at http://127.0.0.1:9 sent a reply body that could not be decoded (DecodingError)",
        ),
    ],
)
@pytest.mark.parametrize("error_cls", [JudgeError, SystemOneError])
def test_each_transport_failure_maps_to_one_kind_for_both_families(
    exc: BaseException, kind: str, message: str, error_cls: type[JudgeError]
) -> None:
    err = _map(exc, error_cls)
    assert err is not None and type(err) is error_cls
    assert err.kind == ErrorKind(kind) and str(err) == message
    assert err.retryable is (kind in ("timeout", "connection", "server"))


def test_anything_else_is_left_to_the_caller() -> None:
    assert _map(KeyError("x")) is None and _map(RuntimeError("boom")) is None


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_both_clients_report_a_refused_connection_and_a_slow_server_alike(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    port = _closed_port()
    llm = LocalModel(model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY, retry_policy=POLICY)
    s1 = TypeSafeModel(model="m", api_key=KEY, base_url=f"http://127.0.0.1:{port}", retry_policy=POLICY)
    with pytest.raises(JudgeError) as a:
        llm.generate("q")
    with pytest.raises(SystemOneError) as b:
        s1.decide("s", {"q": NoulQuestion(instructions="Is it?")})
    for err, where in ((a.value, f"http://127.0.0.1:{port}/v1"), (b.value, f"http://127.0.0.1:{port}")):
        assert err.kind == "connection" and err.retryable
        assert str(err).startswith(f"judge m: could not connect to {where} (")
    slow = RetryPolicy(max_retries=0, timeout=0.3)
    with OpenAIChatServer(faults=[Fault.slow(2.0)]) as srv:
        with pytest.raises(JudgeError) as c:
            LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=slow).generate("q")
    with SystemOneServer(faults=[Fault.slow(2.0)]) as srv:
        with pytest.raises(SystemOneError) as d:
            TypeSafeModel(model="m", api_key=KEY, base_url=srv.base_url, retry_policy=slow).decide(
                "s", {"q": NoulQuestion(instructions="Is it?")}
            )
    assert str(c.value) == str(d.value) == "judge m: no reply within 0.3 s (DEEPEVAL_JUDGE_TIMEOUT)"
    assert c.value.kind == d.value.kind == "timeout"


def test_both_clients_refuse_a_key_with_a_line_break_without_quoting_it() -> None:
    bad = "sk-line\nbreak-0451"
    llm = LocalModel(model="m", base_url="http://127.0.0.1:9/v1", api_key=bad, retry_policy=POLICY)
    s1 = TypeSafeModel(model="m", api_key=bad, base_url="http://127.0.0.1:9", retry_policy=POLICY)
    with pytest.raises(JudgeError) as a:
        llm.generate("q")
    with pytest.raises(SystemOneError) as b:
        s1.decide("s", {"q": NoulQuestion(instructions="Is it?")})
    assert str(a.value).startswith("judge m: the API key contains a control character")
    assert str(b.value).startswith("System One model m: the TypeSafe API key contains a control character")
    for err in (a.value, b.value):
        assert err.kind == "auth" and not err.retryable and "sk-line" not in str(err)


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_system_one_error_detail_is_redacted_before_it_is_cut(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The System One client used to cut a plain-text error body at 200 characters and then redact it: a key
    # starting at character 195 kept its first 5 characters. Now, as for the OpenAI-compatible client, the detail
    # is redacted whole and then cut (at 300 characters).
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    with SystemOneServer(faults=[Fault.http_status(500, "x" * 195 + KEY + " tail")]) as srv:
        model = TypeSafeModel(model="m", api_key=KEY, base_url=srv.base_url, retry_policy=POLICY)
        with pytest.raises(SystemOneError) as info:
            model.decide("s", {"q": NoulQuestion(instructions="Is it?")})
    # the server's request id (x-typesafe-request-id) is shown after the detail
    assert str(info.value) == "judge m: HTTP 500: " + "x" * 195 + "*** tail (request id req-loopback-1)"
    assert info.value.kind == "server" and info.value.retryable


def test_status_error_reads_retry_after_and_never_fails_on_a_header() -> None:
    err = status_error(429, model="m", detail="slow down", headers={"Retry-After": "2.5"})
    assert err.retry_after == 2.5 and err.kind == "rate_limit" and err.retryable

    class Broken:
        def items(self) -> list[tuple[str, str]]:
            raise RuntimeError("unreadable")

    err = status_error(429, model="m", detail="", headers=Broken())
    assert err.retry_after is None and err.kind == "rate_limit"
    assert status_error(503, model="m", detail="d", headers=None).retry_after is None


def test_a_non_json_body_is_a_retryable_server_error_quoting_its_redacted_start() -> None:
    from deepeval.config.redaction import register_secret

    register_secret(KEY)  # as a client does with its key
    with pytest.raises(SystemOneError) as info:
        read_json(
            b"<html>" + KEY.encode(), label="L", model="m", base_url="u", status=200, error_cls=SystemOneError
        )
    assert (
        str(info.value)
        == "L: the server at u replied (HTTP 200) with a body that is not JSON, starting '<html>***'"
    )
    assert info.value.status_code == 200 and info.value.retryable and info.value.kind == "server"
    assert read_json('{"a": 1}', label="L", model="m", base_url="u") == {"a": 1}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (12, 12),
        ("7", 7),
        (3.0, 3),
        (None, None),
        ("many", None),
        ([], None),
        (float("inf"), None),
        (0, 0),
        (-3_000_000, None),
        (10**305, None),
        (100_000_001, None),
    ],
)
def test_token_counts_parse_once_for_both_families(value: object, expected: int | None) -> None:
    assert int_or_none(value) == expected


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_an_html_error_page_is_quoted_as_text_by_both_clients(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a proxy's error page is the only clue the server gives: its text reaches the error, tags dropped, key hidden
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    page = f"<html><head><style>p {{x: 1}}</style></head><body><h1>400 Bad Request</h1><p>model not loaded {KEY}</p></body></html>"
    with OpenAIChatServer(faults=[Fault.non_json(page, status=400)]) as srv:
        with pytest.raises(JudgeError) as a:
            LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=POLICY).generate("q")
    with SystemOneServer(faults=[Fault.non_json(page, status=400)]) as srv:
        with pytest.raises(SystemOneError) as b:
            TypeSafeModel(model="m", api_key=KEY, base_url=srv.base_url, retry_policy=POLICY).decide(
                "s", {"q": NoulQuestion(instructions="Is it?")}
            )
    for err, note in ((a.value, ""), (b.value, " (request id req-loopback-1)")):
        assert str(err) == "judge m: HTTP 400: 400 Bad Request model not loaded ***" + note
        assert err.kind == "bad_request" and not err.retryable


class _InProcessModel(LocalModel):
    """A client of a server the user reaches through no HTTP endpoint of theirs (as GGUFModel's llama.cpp)."""

    server_name = "the test model server"


@pytest.mark.parametrize(
    ("fault", "message", "kind"),
    [
        (
            Fault.http_status(400, {"error": {"message": f"bad field, key {KEY}", "code": 400}}),
            "judge m: the test model server refused the request: bad field, key ***",
            "bad_request",
        ),
        (
            Fault.http_status(503, {"error": {"message": "Loading model"}}),
            "judge m: the test model server failed on the request: Loading model",
            "server",
        ),
        (
            Fault.non_json(f"<p>{KEY}</p>"),
            "judge m: the test model server replied with a body that is not JSON, starting '<p>***</p>'",
            "server",
        ),
    ],
)
def test_a_backend_without_an_http_endpoint_names_its_server_not_an_http_status(
    fault: Fault, message: str, kind: str
) -> None:
    with OpenAIChatServer(faults=[fault, fault]) as srv:
        url = srv.base_url
        with pytest.raises(JudgeError) as named:
            _InProcessModel(model="m", base_url=url, api_key=KEY, retry_policy=POLICY).generate("q")
        with pytest.raises(JudgeError) as plain:
            LocalModel(model="m", base_url=url, api_key=KEY, retry_policy=POLICY).generate("q")
    assert str(named.value) == message and "HTTP" not in str(named.value) and url not in str(named.value)
    assert str(plain.value).startswith(
        "judge m: HTTP " if fault.kind == "status" else "judge m: the server at "
    )
    # only the words change: kind, status and retryability are the HTTP client's
    for err in (named.value, plain.value):
        assert err.kind == kind
    assert named.value.status_code == plain.value.status_code
    assert named.value.retryable is plain.value.retryable


def test_a_backend_without_an_http_endpoint_names_its_server_when_it_cannot_connect() -> None:
    port = _closed_port()
    llm = _InProcessModel(model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY, retry_policy=POLICY)
    with pytest.raises(JudgeError) as info:
        llm.generate("q")
    assert str(info.value).startswith("judge m: could not connect to the test model server (")
    assert info.value.kind == "connection" and info.value.retryable and "127.0.0.1" not in str(info.value)
