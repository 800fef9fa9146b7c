"""The default aiohttp transport against servers that do not answer HTTP, and base URLs carrying
credentials. transport.py promises the same auth and errors as the httpx transport, and judge errors never show
credentials of a base URL (test_breaker_url_credentials.py)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from _support.markers import REGRESSION
from deepeval.errors import JudgeError
from deepeval.models import LocalModel
from deepeval.models.retry import RetryPolicy
from deepeval.testing.servers import OpenAIChatServer

pytestmark = REGRESSION


def _raw_server(handle: Callable[[socket.socket], None]) -> Iterator[int]:
    """A loopback TCP server that gives each connection to ``handle`` (then closes it); yields its port."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                handle(conn)

    threading.Thread(target=serve, daemon=True).start()
    yield srv.getsockname()[1]
    srv.close()


@pytest.fixture
def not_http_port() -> Iterator[int]:
    """A loopback port whose server answers every request with a line that is not HTTP (a Redis-style error), as
    a base URL pointing at the wrong service gets."""

    def handle(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.sendall(b"-ERR unknown command 'POST'\r\n\r\n")

    yield from _raw_server(handle)


def test_non_http_reply_is_a_connection_error_without_the_url_secret(
    not_http_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (fixed): (transport, leaked key): on the aiohttp transport a reply that is not HTTP escapes
    generate() as a bare aiohttp ClientResponseError (not retried) whose message holds the request URL with the base
    URL's ?api_key=QSECRET888; it lands in the metric row's error and the JSON report. httpx: JudgeError
    kind='connection', no secret"""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    model = LocalModel(
        model="m",
        base_url=f"http://127.0.0.1:{not_http_port}/v1?api_key=QSECRET888",
        retry_policy=RetryPolicy(max_retries=0, timeout=5),
    )
    with pytest.raises(Exception) as info:
        model.generate("q")
    assert "QSECRET888" not in str(info.value)
    assert isinstance(info.value, JudgeError) and info.value.kind == "connection", repr(info.value)


def test_base_url_with_user_info_is_sent_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (fixed): (transport): a base URL with user-info (http://admin:URLPASS777@host/v1, e.g. a basic-auth
    reverse proxy) works on httpx (the request is sent) but fails on the default aiohttp transport before sending:
    JudgeError bad_request 'Cannot combine AUTHORIZATION header with AUTH argument or credentials encoded in URL', 0
    requests"""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    with OpenAIChatServer(lambda req: "ok") as srv:
        url = srv.base_url.replace("http://", "http://admin:URLPASS777@")
        model = LocalModel(
            model="m", base_url=url, api_key="sk-x", retry_policy=RetryPolicy(max_retries=0, timeout=5)
        )
        assert model.generate("q")[0] == "ok"
        assert srv.counters.requests == 1


def test_base_url_with_user_info_is_sent_on_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    """Held up (reference for the test above): httpx sends the request."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "httpx")
    with OpenAIChatServer(lambda req: "ok") as srv:
        url = srv.base_url.replace("http://", "http://admin:URLPASS777@")
        model = LocalModel(
            model="m", base_url=url, api_key="sk-x", retry_policy=RetryPolicy(max_retries=0, timeout=5)
        )
        assert model.generate("q")[0] == "ok"
        assert srv.counters.requests == 1


def test_system_one_non_http_reply_is_a_connection_error_without_the_url_secret(
    not_http_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (fixed): (transport, leaked key): the TypeSafe System One client on aiohttp lets a non-HTTP reply
    escape decide() as a bare ClientResponseError whose message holds '?token=QSECRET888' from the base URL; httpx:
    SystemOneError kind='connection', no secret"""
    from deepeval.models import TypeSafeModel
    from deepeval.models.system_one import NoulQuestion

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    model = TypeSafeModel(
        api_key="k",
        base_url=f"http://127.0.0.1:{not_http_port}?token=QSECRET888",
        retry_policy=RetryPolicy(max_retries=0, timeout=5),
    )
    with pytest.raises(Exception) as info:
        model.decide({"input": "x"}, {"q": NoulQuestion(instructions="Relevant?")})
    assert "QSECRET888" not in str(info.value)
    assert isinstance(info.value, JudgeError) and info.value.kind == "connection", repr(info.value)


def test_system_one_base_url_with_user_info_is_sent_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (fixed): (transport): a TypeSafe base URL with user-info works on httpx (sent, P(yes)=0.5 from the
    default server) but fails on aiohttp before sending: SystemOneError bad_request 'Cannot combine AUTHORIZATION
    header with AUTH argument or credentials encoded in URL'"""
    from deepeval.models import TypeSafeModel
    from deepeval.models.system_one import NoulQuestion
    from deepeval.testing.servers import SystemOneServer

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    with SystemOneServer() as srv:
        model = TypeSafeModel(
            api_key="k",
            base_url=srv.base_url.replace("http://", "http://admin:URLPASS777@"),
            retry_policy=RetryPolicy(max_retries=0, timeout=5),
        )
        answers, _ = model.decide({"input": "x"}, {"q": NoulQuestion(instructions="Relevant?")})
        assert answers.nouls["q"].probability == 0.5
        assert srv.counters.requests == 1


@pytest.fixture
def big_header_port() -> Iterator[int]:
    """A loopback chat-completions server whose valid 200 reply carries one 9,000-byte header line (a large
    cookie or policy header from a gateway)."""
    import json

    body = json.dumps(
        {
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1},
        }
    ).encode()

    def handle(conn: socket.socket) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            data += conn.recv(65536)
        head, rest = data.split(b"\r\n\r\n", 1)
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        )
        while len(rest) < length:
            rest += conn.recv(65536)
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Big: "
            + b"a" * 9000
            + b"\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\nConnection: close\r\n\r\n"
            + body
        )

    yield from _raw_server(handle)


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_reply_with_a_large_header_is_read(
    big_header_port: int, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A valid reply with a 9,000-byte header line: httpx reads it; aiohttp refuses header lines over 8,190 bytes,
    a documented limit of that transport (found by breaker 3 as a bare aiohttp ClientResponseError). It is now a
    JudgeError that names the switch to httpx, and shows no URL beyond the display form."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    model = LocalModel(
        model="m",
        base_url=f"http://127.0.0.1:{big_header_port}/v1",
        retry_policy=RetryPolicy(max_retries=0, timeout=5),
    )
    if transport == "httpx":
        assert model.generate("q")[0] == "ok"
        return
    with pytest.raises(JudgeError) as info:
        model.generate("q")
    assert info.value.kind == "connection" and "DEEPEVAL_HTTP_CLIENT=httpx" in str(info.value)
