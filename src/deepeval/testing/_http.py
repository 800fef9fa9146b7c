"""Shared machinery of the loopback test servers: a threaded stdlib HTTP server on 127.0.0.1, scripted faults,
counters and a context-manager life cycle. Not a public module; use :mod:`deepeval.testing.servers`."""

from __future__ import annotations

import gzip
import json
import random
import socket
import threading
import urllib.parse
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, TypeVar

_S = TypeVar("_S", bound="LoopbackServer")


@dataclass(frozen=True)
class Fault:
    """One scripted failure, consumed by one request.

    ``kind``:
        * ``"status"``: reply ``status`` with JSON ``body`` (a default error body when None) and, for 429,
          ``Retry-After: retry_after`` (seconds) and/or ``retry-after-ms: retry_after_ms``.
        * ``"slow"``: wait ``delay`` seconds, then answer normally (a client with a shorter deadline times out).
        * ``"non_json"``: reply ``status`` (200 unless given) with ``text/html`` body ``body_text``.
        * ``"drop_field"``: answer normally but delete top-level ``field_name`` from the JSON reply.
        * ``"disconnect"``: close the connection without any reply.
        * ``"echo"``: reply ``status`` with the JSON body and headers ``echo(credential)`` returns, where
          ``credential`` is the request's ``Authorization`` header less its ``Bearer `` prefix (a server that
          quotes the key it was sent, whole, cut or encoded).
        * ``"oversize"``: reply ``status`` with a JSON-looking body of ``size`` bytes, announced by
          ``Content-Length``, or sent chunked with no length when ``chunked`` (the size is known only by reading);
          with ``coding`` (``"gzip"`` / ``"deflate"``) the body is sent compressed under that ``Content-Encoding``
          (a few KB on the wire that decode to ``size`` bytes).
        * ``"compressed"``: answer normally, the body sent under ``Content-Encoding: coding``.
    Build them with the class methods below rather than by hand.
    """

    kind: str
    status: int = 500
    retry_after: float | None = None
    retry_after_ms: int | None = None
    delay: float = 0.0
    body: Any = None
    body_text: str = "<html><body>502 Bad Gateway</body></html>"
    field_name: str = ""
    echo: Callable[[str], tuple[Any, Mapping[str, str]]] | None = None
    size: int = 0
    chunked: bool = False
    coding: str | None = None

    @classmethod
    def rate_limited(cls, retry_after: float | None = None, retry_after_ms: int | None = None) -> Fault:
        """A 429 with ``Retry-After`` (seconds, may be fractional) and/or ``retry-after-ms`` headers."""
        return cls("status", status=429, retry_after=retry_after, retry_after_ms=retry_after_ms)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        """A 5xx reply with a JSON error body."""
        return cls("status", status=status)

    @classmethod
    def http_status(cls, status: int, body: Any = None) -> Fault:
        """Any status with an optional JSON body (default: the server's error body for that status)."""
        return cls("status", status=status, body=body)

    @classmethod
    def slow(cls, delay: float) -> Fault:
        """Answer normally after ``delay`` seconds."""
        return cls("slow", delay=delay)

    @classmethod
    def non_json(cls, text: str = "<html><body>502 Bad Gateway</body></html>", status: int = 200) -> Fault:
        """A reply (200 unless ``status`` is given) whose body is not JSON."""
        return cls("non_json", body_text=text, status=status)

    @classmethod
    def drop_field(cls, name: str) -> Fault:
        """A normal reply with the top-level field ``name`` removed (e.g. ``choices`` or ``answers``)."""
        return cls("drop_field", field_name=name)

    @classmethod
    def echo_credential(cls, status: int, echo: Callable[[str], tuple[Any, Mapping[str, str]]]) -> Fault:
        """A ``status`` reply built by ``echo(credential) -> (json_body, headers)`` from the key the request sent."""
        return cls("echo", status=status, echo=echo)

    @classmethod
    def oversize(
        cls, size: int, *, chunked: bool = False, status: int = 200, coding: str | None = None
    ) -> Fault:
        """A ``status`` reply whose body is ``size`` bytes (a judge reply is a few KB), with or without a length;
        sent compressed (``coding``: ``"gzip"`` or ``"deflate"``) when given."""
        return cls("oversize", status=status, size=size, chunked=chunked, coding=coding)

    @classmethod
    def compressed(cls, coding: str) -> Fault:
        """A normal reply whose body is sent under ``Content-Encoding: coding`` (``"gzip"`` or ``"deflate"``)."""
        return cls("compressed", coding=coding)

    @classmethod
    def disconnect(cls) -> Fault:
        """Close the connection without replying."""
        return cls("disconnect")


@dataclass
class Counters:
    """What the server saw. Read them after the calls finished (they are updated under a lock).

    ``requests`` counts every request to a POST endpoint (faulted ones included); ``replied_ok`` the 200 replies;
    ``input_tokens``/``output_tokens`` sum the ``usage`` of 200 replies; ``max_in_flight`` is the highest number of
    POST requests being handled at once; ``authorization`` lists the ``Authorization`` header of each POST request
    (``None`` when absent); ``bodies`` the parsed JSON bodies (``None`` when unparseable); ``targets`` the request
    target of each (path and query, as sent).
    """

    requests: int = 0
    replied_ok: int = 0
    faults_served: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    get_requests: int = 0
    authorization: list[str | None] = field(default_factory=list)
    bodies: list[Any] = field(default_factory=list)
    #: the request target of each POST request as sent (path and query string)
    targets: list[str] = field(default_factory=list)
    #: the headers of each POST request (names lower-cased)
    headers: list[dict[str, str]] = field(default_factory=list)


def compress(data: bytes, coding: str) -> bytes:
    """``data`` as sent under ``Content-Encoding: coding`` (``gzip``, or ``deflate``: zlib-wrapped, as RFC 9110)."""
    if coding == "gzip":
        return gzip.compress(data, mtime=0)
    if coding == "deflate":
        return zlib.compress(data)
    raise ValueError(f"no such coding here: {coding!r}")


def _decode_body(raw: bytes, encoding: str) -> bytes | None:
    """A request body sent with ``Content-Encoding`` gzip, deflate or zstd (the official TypeSafe SDK compresses
    large bodies with zstd where Python has it); None when it is another encoding or does not decode."""
    try:
        if encoding in ("gzip", "x-gzip"):
            return gzip.decompress(raw)
        if encoding == "deflate":
            return zlib.decompress(raw)
        if encoding == "zstd":
            try:
                from compression.zstd import decompress  # type: ignore[import-not-found,unused-ignore]
            except ImportError:
                from backports.zstd import decompress  # type: ignore[import-not-found,no-redef,unused-ignore]
            return bytes(decompress(raw))
    except Exception:  # a body that does not decode, or no zstd in this Python: refused with 415
        return None
    return None


class _Server(ThreadingHTTPServer):
    # Load tests open dozens of connections at once; the stdlib default backlog of 5 resets them.
    request_queue_size = 128
    daemon_threads = True
    allow_reuse_address = True
    owner: LoopbackServer

    def handle_error(self, request: Any, client_address: Any) -> None:  # quiet: clients hang up on purpose
        return


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # header and body go out in two writes: avoid the 40 ms delayed-ACK stall
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # no access log on stderr
        return

    def setup(self) -> None:
        super().setup()
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    def do_GET(self) -> None:
        self.server.owner._handle(self, "GET")

    def do_POST(self) -> None:
        self.server.owner._handle(self, "POST")


class LoopbackServer:
    """Base of the loopback servers: binds 127.0.0.1 on a free port, serves from a daemon thread.

    Args:
        api_key: when set, POST requests must carry ``Authorization: Bearer <api_key>`` or get 401.
        latency: seconds to wait before every POST reply (fixed).
        faults: scripted faults, consumed one per POST request in order, before ``failure_rate`` applies.
        failure_rate: probability in [0, 1] that a POST request (after the script ran out) gets ``failure``.
        failure: the fault used by ``failure_rate`` (default: a 500).
        seed: seed of the failure-rate random generator (runs are reproducible).
        keep_bodies: keep every parsed request body in ``counters.bodies`` (turn off for long benchmarks).

    Use as a context manager (``with Server(...) as s: s.base_url``) or call :meth:`start`/:meth:`close`.

    A dialect whose key travels in another header sets :attr:`credential_header` / :attr:`credential_prefix`
    (Anthropic: ``x-api-key`` with no prefix); ``counters.authorization`` then lists that header's values.
    """

    #: the request header that carries the API key, and the text before the key in it
    credential_header: ClassVar[str] = "Authorization"
    credential_prefix: ClassVar[str] = "Bearer "

    default_error_status_body: ClassVar[dict[int, str]] = {
        400: "bad request",
        401: "invalid or missing API key",
        403: "this key may not use this model",
        404: "not found",
        422: "request body failed validation",
        429: "rate limit reached, retry later",
        500: "internal server error",
        502: "bad gateway",
        503: "service unavailable",
    }

    def __init__(
        self,
        *,
        api_key: str | None = None,
        latency: float = 0.0,
        faults: Iterable[Fault] = (),
        failure_rate: float = 0.0,
        failure: Fault | None = None,
        seed: int = 0,
        keep_bodies: bool = True,
    ) -> None:
        if not 0.0 <= failure_rate <= 1.0:
            raise ValueError(f"failure_rate must be in [0, 1], got {failure_rate}")
        if latency < 0:
            raise ValueError(f"latency must be >= 0 seconds, got {latency}")
        self.api_key = api_key
        self.latency = latency
        self.failure_rate = failure_rate
        self.failure = failure or Fault.server_error(500)
        self.keep_bodies = keep_bodies
        self.counters = Counters()
        self._faults: deque[Fault] = deque(faults)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._current = threading.local()
        self._connections: set[socket.socket] = set()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------------------
    def start(self: _S) -> _S:
        """Bind and start serving (idempotent). Returns ``self``."""
        if self._httpd is not None:
            return self
        httpd = _Server(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._closing.clear()
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name=type(self).__name__
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving, interrupt slow replies and close open connections (idempotent)."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._closing.set()
        httpd.shutdown()
        httpd.server_close()
        with self._lock:
            conns = list(self._connections)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self: _S) -> _S:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server is not running; use it as a context manager or call start()")
        return int(self._httpd.server_address[1])

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:<port>`` (no path)."""
        return f"http://127.0.0.1:{self.port}"

    # -- scripting --------------------------------------------------------------------------------------------
    def script(self, *faults: Fault) -> None:
        """Append faults to the queue; each POST request consumes the next one."""
        with self._lock:
            self._faults.extend(faults)

    def reset_counters(self) -> None:
        with self._lock:
            self.counters = Counters()

    @property
    def pending_faults(self) -> int:
        with self._lock:
            return len(self._faults)

    # -- internals --------------------------------------------------------------------------------------------
    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def _next_fault(self) -> Fault | None:
        with self._lock:
            if self._faults:
                return self._faults.popleft()
            if self.failure_rate > 0 and self._rng.random() < self.failure_rate:
                return self.failure
        return None

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._closing.wait(seconds)

    def _send(self, h: _Handler, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        if isinstance(body, (bytes, str)):
            data = body.encode() if isinstance(body, str) else body
            ctype = "text/html; charset=utf-8"
        else:
            data = json.dumps(body).encode()
            ctype = "application/json"
        extra = {**self.reply_headers(), **(headers or {})}
        ctype = extra.pop("Content-Type", ctype)
        try:
            h.send_response(status)
            h.send_header("Content-Type", ctype)
            h.send_header("Content-Length", str(len(data)))
            for k, v in extra.items():
                h.send_header(k, v)
            h.end_headers()
            h.wfile.write(data)
            h.wfile.flush()
        except OSError:  # the client gave up (deadline) or the server is closing
            h.close_connection = True

    @staticmethod
    def _send_oversize(h: _Handler, fault: Fault) -> None:
        """``fault.size`` bytes of body (``{"x": "aaa...`` in 64 KiB writes) until sent or the client hangs up;
        compressed first under ``fault.coding`` when given."""
        chunk = 64 * 1024
        head = b'{"x": "'
        pieces: list[bytes] = []
        left, first = fault.size, True
        while left > 0:
            piece = ((head if first else b"") + b"a" * chunk)[:left]
            first = False
            left -= len(piece)
            pieces.append(piece)
        if fault.coding is not None:
            pieces = [compress(b"".join(pieces), fault.coding)]
        try:
            h.send_response(fault.status)
            h.send_header("Content-Type", "application/json")
            if fault.coding is not None:
                h.send_header("Content-Encoding", fault.coding)
            if fault.chunked:
                h.send_header("Transfer-Encoding", "chunked")
            else:
                h.send_header("Content-Length", str(sum(len(p) for p in pieces)))
            h.end_headers()
            for piece in pieces:
                h.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if fault.chunked else piece)
            if fault.chunked:
                h.wfile.write(b"0\r\n\r\n")
            h.wfile.flush()
        except OSError:  # the client stopped reading and closed the connection
            pass
        h.close_connection = True

    def _error_body(self, status: int, message: str) -> Any:
        """The JSON body of an error reply in this server's dialect."""
        raise NotImplementedError

    def _handle(self, h: _Handler, method: str) -> None:
        path = h.path.split("?", 1)[0].rstrip("/")
        if method == "GET":
            with self._lock:
                self.counters.get_requests += 1
            refusal = self.auth_failure(self._credential(h.headers)) if self.get_needs_key else None
            status, body = refusal or self.handle_get(path)
            self._send(h, status, body)
            return
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        encoding = (h.headers.get("Content-Encoding") or "identity").strip().lower()
        if encoding != "identity":
            decoded = _decode_body(raw, encoding)
            if decoded is None:
                self._send(h, 415, self._error_body(415, f"Content-Encoding {encoding!r} is not supported"))
                return
            raw = decoded
        try:
            if str(h.headers.get("Content-Type") or "").startswith("application/x-www-form-urlencoded"):
                payload: Any = dict(
                    urllib.parse.parse_qsl(raw.decode("utf-8", "replace"))
                )  # an OAuth token request
            else:
                payload = json.loads(raw) if raw else None
        except ValueError:
            payload = None
        auth = self._credential(h.headers)
        self._current.headers = {k.lower(): v for k, v in h.headers.items()}
        self._current.target = h.path
        with self._lock:
            c = self.counters
            c.requests += 1
            c.in_flight += 1
            c.max_in_flight = max(c.max_in_flight, c.in_flight)
            if self.keep_bodies:
                c.authorization.append(auth)
                c.bodies.append(payload)
                c.targets.append(h.path)
                c.headers.append({k.lower(): v for k, v in h.headers.items()})
        try:
            self._respond(h, path, raw, payload, auth)
        finally:
            with self._lock:
                self.counters.in_flight -= 1

    def _respond(self, h: _Handler, path: str, raw: bytes, payload: Any, auth: str | None) -> None:
        if not self.is_post_path(path):
            self._send(h, 404, self._error_body(404, f"no route for POST {path}"))
            return
        self._sleep(self.latency)
        refusal = self.auth_failure(auth)
        if refusal is not None:
            self._send(h, *refusal)
            return
        fault = self._next_fault()
        if fault is not None:
            with self._lock:
                self.counters.faults_served += 1
            if fault.kind == "status":
                headers: dict[str, str] = {}
                if fault.retry_after is not None:
                    headers["Retry-After"] = f"{fault.retry_after:g}"
                if fault.retry_after_ms is not None:
                    headers["retry-after-ms"] = str(fault.retry_after_ms)
                msg = self.default_error_status_body.get(fault.status, f"error {fault.status}")
                body = fault.body if fault.body is not None else self._error_body(fault.status, msg)
                self._send(h, fault.status, body, headers)
                return
            if fault.kind == "non_json":
                self._send(h, fault.status, fault.body_text)
                return
            if fault.kind == "echo" and fault.echo is not None:
                body, echoed = fault.echo((auth or "").removeprefix(self.credential_prefix))
                self._send(h, fault.status, body, dict(echoed))
                return
            if fault.kind == "oversize":
                self._send_oversize(h, fault)
                return
            if fault.kind == "disconnect":
                h.close_connection = True
                try:
                    h.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return
            if fault.kind == "slow":
                self._sleep(fault.delay)
                if self._closing.is_set():
                    return
        if payload is None or not isinstance(payload, dict):
            self._send(h, 400, self._error_body(400, "the request body must be a JSON object"))
            return
        status, body, (tin, tout) = self.handle_post(path, payload, raw)
        if fault is not None and fault.kind == "drop_field" and isinstance(body, dict):
            body.pop(fault.field_name, None)
        if status == 200:
            with self._lock:
                self.counters.replied_ok += 1
                self.counters.input_tokens += tin
                self.counters.output_tokens += tout
        if fault is not None and fault.kind == "compressed" and fault.coding is not None:
            data = compress(json.dumps(body).encode(), fault.coding)
            self._send(
                h, status, data, {"Content-Encoding": fault.coding, "Content-Type": "application/json"}
            )
            return
        self._send(h, status, body)

    def _credential(self, headers: Any) -> str | None:
        """The request header that carries the key, as sent (``credential_header``)."""
        value = headers.get(self.credential_header)
        return None if value is None else str(value)

    @property
    def request_headers(self) -> dict[str, str]:
        """The headers (names lower-cased) of the request being handled on this thread (for dialect hooks)."""
        return dict(getattr(self._current, "headers", {}))

    @property
    def request_target(self) -> str:
        """The target (path and query, as sent) of the request being handled on this thread."""
        return str(getattr(self._current, "target", ""))

    # -- dialect hooks ----------------------------------------------------------------------------------------
    #: whether GET requests need the key too (POST requests always do when ``api_key`` is set)
    get_needs_key: ClassVar[bool] = False

    def auth_failure(self, authorization: str | None) -> tuple[int, Any] | None:
        """``(status, body)`` refusing a request with this credential header (``credential_header``:
        ``Authorization`` unless the dialect says otherwise), or None to let it through. Default: with ``api_key``
        set, anything but ``<credential_prefix><api_key>`` (``Bearer <api_key>``) gets a 401."""
        if self.api_key is None or authorization == f"{self.credential_prefix}{self.api_key}":
            return None
        return 401, self._error_body(401, self.default_error_status_body[401])

    def reply_headers(self) -> dict[str, str]:
        """Headers sent with every reply (a fault's own headers win)."""
        return {}

    def is_post_path(self, path: str) -> bool:
        raise NotImplementedError

    def handle_get(self, path: str) -> tuple[int, Any]:
        raise NotImplementedError

    def handle_post(self, path: str, payload: dict[str, Any], raw: bytes) -> tuple[int, Any, tuple[int, int]]:
        """Return ``(status, json_body, (input_tokens, output_tokens))``."""
        raise NotImplementedError
