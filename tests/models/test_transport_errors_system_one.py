"""Error mapping of the System One client's HTTP transport (aiohttp default, httpx)."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from _support.markers import REGRESSION
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.models.system_one.typesafe import SystemOneError, TypeSafeModel

pytestmark = REGRESSION


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
