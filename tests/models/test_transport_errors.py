"""The judge clients' HTTP transports (aiohttp by default, httpx on request) report the same failures the same
way, and judge errors never show credentials of a base URL."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from _support.markers import REGRESSION
from deepeval.errors import JudgeError
from deepeval.models import LocalModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.models.system_one.typesafe import SystemOneError, TypeSafeModel
from deepeval.testing.servers import Fault, OpenAIChatServer

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
    a documented limit of that transport (it surfaced as a bare aiohttp ClientResponseError). It is now a
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


# ----------------------------------------------------------------------------------------------------------
# The judge clients' HTTP transport (aiohttp by default, httpx on request) must report the same failures the
# same way (src/deepeval/models/llms/transport.py: "same auth, timeouts, proxies and errors").


def test_dropped_connection_is_a_connection_error_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a server closing the connection without a reply was reported as kind='timeout' ('no reply
    within 30 s') after ~0.01 s on the aiohttp transport; httpx said kind='connection'."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    policy = RetryPolicy(max_retries=0, timeout=30)
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.disconnect()]) as srv:
        model = LocalModel(model="m", base_url=srv.base_url, retry_policy=policy)
        t0 = time.perf_counter()
        with pytest.raises(JudgeError) as info:
            model.generate("q")
        elapsed = time.perf_counter() - t0
    assert elapsed < 5  # it failed at once: nothing timed out
    assert info.value.kind == "connection", str(info.value)
    assert "within" not in str(info.value)


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_key_with_a_line_break(monkeypatch: pytest.MonkeyPatch, transport: str) -> None:
    """Regression: an API key with a trailing newline (read from a file) made generate() raise a bare ValueError
    ('Forbidden control character detected in headers') on the aiohttp transport. Surrounding whitespace is now
    dropped; a control character inside a key is refused with an auth error that does not quote the key."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    policy = RetryPolicy(max_retries=0, timeout=5)
    with OpenAIChatServer(lambda req: "ok") as srv:
        assert (
            LocalModel(
                model="m", base_url=srv.base_url, api_key="sk-breaker3-SECRET\n", retry_policy=policy
            ).generate("q")[0]
            == "ok"
        )
        assert srv.counters.authorization == ["Bearer sk-breaker3-SECRET"]
        with pytest.raises(JudgeError) as info:
            LocalModel(
                model="m", base_url=srv.base_url, api_key="sk-bre\naker3-SECRET", retry_policy=policy
            ).generate("q")
        assert srv.counters.requests == 1  # nothing sent for the malformed key
    assert (
        info.value.kind == "auth"
        and "SECRET" not in str(info.value)
        and "control character" in str(info.value)
    )


def test_system_one_key_with_a_line_break(monkeypatch: pytest.MonkeyPatch) -> None:
    from deepeval.errors import SystemOneError
    from deepeval.models import TypeSafeModel
    from deepeval.models.system_one import NoulQuestion
    from deepeval.testing.servers import SystemOneServer, wire_noul

    questions = {"ok": NoulQuestion(instructions="Relevant?", true="yes", false="no")}
    with SystemOneServer(lambda state, qs: {"ok": wire_noul(0.7)}, api_key="ts-SECRET") as srv:
        model = TypeSafeModel(api_key=" ts-SECRET\r\n", base_url=srv.base_url)
        assert model.decide({"input": "x"}, questions)[0].nouls["ok"].probability == 0.7
        with pytest.raises(SystemOneError) as info:
            TypeSafeModel(api_key="ts-\x00SECRET", base_url=srv.base_url).decide({"input": "x"}, questions)
    assert info.value.kind == "auth" and "SECRET" not in str(info.value)


def test_bad_transport_setting_leaves_no_unawaited_coroutine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: generate() with an invalid DEEPEVAL_HTTP_CLIENT raised the ConfigurationError but left its
    a_generate coroutine unawaited (RuntimeWarning)."""
    import gc
    import warnings

    from deepeval.errors import ConfigurationError

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "requests")
    model = LocalModel(model="m", base_url="http://127.0.0.1:9/v1", retry_policy=RetryPolicy(max_retries=0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ConfigurationError, match="DEEPEVAL_HTTP_CLIENT must be one of"):
            model.generate("q")
        gc.collect()
    never_awaited = [str(w.message) for w in caught if "never awaited" in str(w.message)]
    assert never_awaited == []


def test_judge_dropped_on_a_running_loop_leaves_no_unclosed_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a judge made per request on a long-lived loop (FastAPI-style, no aclose()) left its aiohttp
    session to the garbage collector, which reported 'Unclosed client session' several times for 3 requests. Judges
    with one configuration now share one client per loop, closed when the loop shuts down."""
    import asyncio
    import gc

    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.test_case import LLMTestCase

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    from _support.judge_replies import AR_ALL_RELEVANT
    from deepeval.testing.servers import schema_responder

    reports: list[str] = []
    with OpenAIChatServer(schema_responder(AR_ALL_RELEVANT)) as srv:

        async def handle_request(i: int) -> float:
            metric = AnswerRelevancyMetric(
                model=LocalModel(model="m", base_url=srv.base_url), eval_mode="llm"
            )
            return await metric.a_measure(
                LLMTestCase(input=f"Capital {i}?", actual_output="Paris is the capital.")
            )

        async def app() -> list[float]:
            asyncio.get_running_loop().set_exception_handler(
                lambda loop, ctx: reports.append(str(ctx["message"]))
            )
            scores = [await handle_request(i) for i in range(3)]
            gc.collect()
            await asyncio.sleep(0.1)  # the app keeps serving
            gc.collect()
            return scores

        assert asyncio.run(app()) == [1.0, 1.0, 1.0]
    assert [r for r in reports if "Unclosed" in r] == []


# ----------------------------------------------------------------------------------------------------------
# Error mapping of the System One client's HTTP transport (aiohttp default, httpx).


class _BadGzipServer:
    """Answers every request with 200, ``Content-Encoding: gzip`` and a body that is not gzip (a broken proxy)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                    b"Content-Length: 5\r\nConnection: close\r\n\r\nhello"
                )

    def close(self) -> None:
        self.sock.close()


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_undecodable_system_one_reply_is_a_system_one_error(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a System One reply whose gzip body does not decode escaped as a bare httpx/httpx2 DecodingError."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    srv = _BadGzipServer()
    try:
        model = TypeSafeModel(api_key="ts-k", base_url=f"http://127.0.0.1:{srv.port}", max_retries=0)
        with pytest.raises(Exception) as info:
            asyncio.run(model.a_decide("state", {"q": NoulQuestion(instructions="ok?")}))
    finally:
        srv.close()
    assert isinstance(info.value, SystemOneError), (
        f"{type(info.value).__module__}.{type(info.value).__name__}"
    )
    assert info.value.kind in {"server", "connection"}
