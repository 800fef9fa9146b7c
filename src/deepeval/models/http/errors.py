"""One mapping from what an HTTP exchange can go wrong with to :class:`~deepeval.errors.JudgeError` kinds, for
both client families (the OpenAI-compatible chat client and the System One client call these; neither maps a
transport failure, a status or a bad reply body on its own).

* :func:`transport_error`: an exception raised while sending (the openai SDK's ``APITimeoutError`` /
  ``APIConnectionError``, httpx's / httpx2's ``TimeoutException`` / ``TransportError``, aiohttp's own errors, a
  request that could not be built, a body that does not decode) -> ``timeout`` / ``connection`` / ``bad_request``
  / ``server``; None for anything else (the caller re-raises it).
* :func:`status_error`: an HTTP error reply -> :func:`error_for_status` with the server's detail redacted before
  it is cut and ``Retry-After`` read without ever failing.
* :func:`read_json`: a reply body -> its JSON, or a retryable ``server`` error quoting its (redacted) start.
* :func:`malformed_key_error`: a key no HTTP header can carry -> ``auth``, never quoting it.
* :func:`int_or_none`: a token count from a reply's ``usage``.
* :func:`parse_retry_after`: the wait a 429 asks for.

A backend the user reaches through no HTTP endpoint of theirs (``GGUFModel``: llama.cpp in this process, over a
private unix socket) passes ``server=`` (who answered, in words: ``"the GGUF model server"``): its messages then
say what that server did ("refused the request", "failed on the request", "could not connect to") with no HTTP
status words, URL or HTTP hints; the kinds, ``status_code`` and redaction are the same.

Every message goes through :func:`deepeval.config.redact` (redaction by value, see
:mod:`deepeval.config.redaction`), and text is redacted *before* it is shortened, so a cut cannot leave a piece
of a key behind.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Mapping
from typing import Any, Protocol

import openai

from deepeval import _json
from deepeval.config.settings import redact
from deepeval.errors import ErrorKind, JudgeError
from deepeval.models.http.reply_limit import ReplyTooLarge
from deepeval.models.http.transport import (
    DECODING_ERRORS,
    TIMEOUT_ERRORS,
    TRANSPORT_ERRORS,
    connection_failure_in,
    is_http_library_error,
    scrub_urls,
)

#: how much of a server's text is redacted before it is shortened for a message (bounds the work on a huge body)
_REDACT_SPAN = 10_000


class _Headers(Protocol):
    def items(self) -> Any: ...


_KIND_BY_STATUS = {
    400: ErrorKind.bad_request,
    401: ErrorKind.auth,
    403: ErrorKind.auth,
    404: ErrorKind.bad_request,
    408: ErrorKind.timeout,
    409: ErrorKind.server,
    413: ErrorKind.context_limit,
    422: ErrorKind.bad_request,
    429: ErrorKind.rate_limit,
}

#: what a server's own error type says, whatever the status it came with: OpenAI's ``error.code``, Jev's
#: ``detail.error_type`` (its context refusal is a 400 with no message), avrik-server's ``error.code`` (422s).
#: A refusal for size (context or the server's question cap) is ``context_limit``: hybrid mode decides those
#: verdicts with the LLM; a model the server does not serve is ``model_unavailable``.
KIND_BY_ERROR_TYPE: dict[str, ErrorKind] = {
    "context_length_exceeded": ErrorKind.context_limit,  # OpenAI
    "max_tokens_exceeded": ErrorKind.context_limit,  # Jev
    "context_too_large": ErrorKind.context_limit,  # avrik-server
    "too_many_questions": ErrorKind.context_limit,  # avrik-server: over its question cap
    "model_unavailable": ErrorKind.model_unavailable,  # avrik-server
}

#: Jev names an unknown model only in the message of a generic usage error
_UNKNOWN_MODEL = re.compile(r"^\s*unknown model\b", re.IGNORECASE)


def kind_for_error_type(error_type: str | None, message: str = "") -> ErrorKind | None:
    """The kind a server's error type (and, for Jev's ``api_usage_error``, its message) says, or None when it says
    nothing the status does not (see :data:`KIND_BY_ERROR_TYPE`)."""
    if not error_type:
        return None
    if error_type == "api_usage_error" and _UNKNOWN_MODEL.match(message):
        return ErrorKind.model_unavailable
    return KIND_BY_ERROR_TYPE.get(error_type)


_HINTS = {
    401: "check the API key",
    # live TypeSafe answers 403 to a request with no key, and other servers to a key without access
    403: "access denied: check that an API key is set and that it may use this model",
    404: "check the model name and base URL",
    429: "rate limited",
}


def error_for_status(
    status: int,
    *,
    model: str,
    detail: str = "",
    retry_after: float | None = None,
    code: str | None = None,
    param: str | None = None,
    error_cls: type[JudgeError] = JudgeError,
    server: str | None = None,
    request_id: str | None = None,
) -> JudgeError:
    """The :class:`JudgeError` for an HTTP error reply.

    ``retryable`` is true for 408, 409, 429 (unless ``code`` is ``insufficient_quota``: a billing problem) and 5xx.
    ``code`` is the server's own error type (OpenAI's ``error.code``, Jev's ``detail.error_type``, avrik-server's
    ``error.code``); where :func:`kind_for_error_type` knows it, it decides the kind, whatever the status, and the
    error is not retried (``context_length_exceeded``, ``max_tokens_exceeded``, ``context_too_large``,
    ``too_many_questions`` -> ``context_limit``; an unknown model -> ``model_unavailable``). The error carries
    ``retry_after`` (seconds or None), ``param`` (the request field the server blamed, or None), ``error_type``
    (``code``) and ``request_id`` (the server's id of the request, shown in the message). ``detail`` must already be
    free of secrets (it is the server's message; :func:`status_error` redacts it). ``server``: see the module
    docstring (the message names it instead of the HTTP status).
    """
    kind = _KIND_BY_STATUS.get(status, ErrorKind.server if status >= 500 else ErrorKind.bad_request)
    retryable = status in (408, 409, 429) or status >= 500
    typed = kind_for_error_type(code, detail)
    if typed is not None:
        kind, retryable = typed, False
    if status == 429 and code == "insufficient_quota":
        retryable = False
    message = _status_message(status, model=model, detail=detail, server=server, kind=typed, code=code)
    if request_id:
        message += f" (request id {request_id})"
    err = error_cls(message, model=model, status_code=status, retryable=retryable, kind=kind)
    err.retry_after = retry_after
    err.param = param
    err.error_type = code
    err.request_id = request_id
    return err


def _status_message(
    status: int,
    *,
    model: str,
    detail: str,
    server: str | None,
    kind: ErrorKind | None = None,
    code: str | None = None,
) -> str:
    if server is None:
        hint = _HINTS.get(status, "")
        if kind == ErrorKind.context_limit:
            hint = f"{code}: the request is too large for the server"
        elif kind == ErrorKind.model_unavailable:
            hint = "the server does not serve this model"
        head = f"judge {model}: HTTP {status}" + (f" ({hint})" if hint else "")
    else:
        head = f"judge {model}: {server} " + (
            "failed on the request" if status >= 500 else "refused the request"
        )
    return f"{head}: {detail[:300]}" if detail else head


def timeout_error(
    model: str,
    seconds: float,
    error_cls: type[JudgeError] = JudgeError,
    *,
    note: str = "DEEPEVAL_JUDGE_TIMEOUT",
) -> JudgeError:
    """A retryable timeout error naming the model and the per-attempt deadline (``note``: where it came from)."""
    return error_cls(
        f"judge {model}: no reply within {seconds:g} s ({note})",
        model=model,
        retryable=True,
        kind=ErrorKind.timeout,
    )


def connection_error(
    model: str, where: str, cause: str, error_cls: type[JudgeError] = JudgeError, *, server: str | None = None
) -> JudgeError:
    """A retryable connection error; ``where`` is the base URL (no credentials), ``cause`` the exception type;
    with ``server`` the message names it instead of ``where``."""
    return error_cls(
        f"judge {model}: could not connect to {server or where} ({cause})",
        model=model,
        retryable=True,
        kind=ErrorKind.connection,
    )


def _reply_too_large_in(exc: BaseException) -> ReplyTooLarge | None:
    """``exc`` or the first :class:`ReplyTooLarge` in its cause chain (an HTTP library may wrap it)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ReplyTooLarge):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def transport_error(
    exc: BaseException,
    *,
    label: str,
    model: str,
    base_url: str,
    timeout: float,
    error_cls: type[JudgeError] = JudgeError,
    timeout_note: str = "DEEPEVAL_JUDGE_TIMEOUT",
    server: str | None = None,
) -> JudgeError | None:
    """The judge error for ``exc``, raised by the HTTP stack while a request was being sent, or None when ``exc``
    is none of those (the caller re-raises it unchanged).

    * a timeout (the SDK's ``APITimeoutError``, httpx's ``TimeoutException``): ``timeout`` after ``timeout``
      seconds, unless its cause chain holds a failed connection (the aiohttp transport reports a refused or dropped
      connection as a connect timeout): then ``connection`` naming that cause;
    * a failed connection (the SDK's ``APIConnectionError``, named by its cause; httpx's ``TransportError``):
      ``connection``;
    * a request that could not be built (``ValueError``, e.g. a header value it cannot send): ``bad_request``;
    * a reply body that does not decode (bad ``Content-Encoding``): a retryable ``server`` error;
    * aiohttp's own errors that the SDK's aiohttp transport lets through (a reply that is not HTTP, a header over
      aiohttp's 8,190-byte limit): a retryable ``connection`` error naming the switch to httpx;
    * a reply body over ``DEEPEVAL_JUDGE_MAX_REPLY_BYTES`` (:mod:`deepeval.models.http.reply_limit`; raised while
      it was read, so the read stopped there): a ``server`` error naming the limit, not retried (the same server
      would send the same reply again).

    ``base_url`` is the URL as shown (no credentials or query); ``label`` names the judge (``judge m``,
    ``System One model jev-latest``); ``server``: see the module docstring (named instead of ``base_url``).
    """
    too_large = _reply_too_large_in(exc)
    if too_large is not None:
        where = server or f"the server at {base_url}"
        return error_cls(
            f"{label}: {where} sent a reply too large to read: {too_large}",
            model=model,
            kind=ErrorKind.server,
        )
    if isinstance(exc, (openai.APITimeoutError, *TIMEOUT_ERRORS)):
        failure = connection_failure_in(exc)
        if failure is None:
            return timeout_error(model, timeout, error_cls, note=timeout_note)
        return connection_error(model, base_url, type(failure).__name__, error_cls, server=server)
    if isinstance(exc, openai.APIConnectionError):
        return connection_error(
            model, base_url, type(exc.__cause__ or exc).__name__, error_cls, server=server
        )
    if isinstance(exc, TRANSPORT_ERRORS):
        return connection_error(model, base_url, type(exc).__name__, error_cls, server=server)
    if isinstance(exc, ValueError):
        return error_cls(
            f"{label}: the request could not be sent ({type(exc).__name__}: {redact(scrub_urls(str(exc)))[:200]})",
            model=model,
            kind=ErrorKind.bad_request,
        )
    if isinstance(exc, DECODING_ERRORS):
        return error_cls(
            f"{label}: {server or f'the server at {base_url}'} sent a reply body that could not be decoded "
            f"({type(exc).__name__})",
            model=model,
            retryable=True,
            kind=ErrorKind.server,
        )
    if is_http_library_error(exc):
        return connection_error(
            model,
            base_url,
            f"{type(exc).__name__}; DEEPEVAL_HTTP_CLIENT=httpx may read it",
            error_cls,
            server=server,
        )
    return None


_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", re.IGNORECASE | re.DOTALL)


def plain_text(body: str) -> str:
    """An error body that is not JSON, as one line of text: HTML tags (and script/style blocks) removed, runs of
    whitespace joined, so a proxy's error page reads as its message."""
    return " ".join(_TAG.sub(" ", body).split())


def status_error(
    status: int,
    *,
    model: str,
    detail: str,
    headers: _Headers | Mapping[str, str] | None,
    code: str | None = None,
    param: str | None = None,
    error_cls: type[JudgeError] = JudgeError,
    server: str | None = None,
    request_id: str | None = None,
) -> JudgeError:
    """:func:`error_for_status` for a reply the wire format has read ``detail`` (and the server's error type
    ``code``, OpenAI's ``param``, the request id) from: the detail is redacted before it is shortened, and
    ``Retry-After`` / ``retry-after-ms`` are read from ``headers`` (a header that does not parse, or headers that
    cannot be read, mean "not said")."""
    return error_for_status(
        status,
        model=model,
        detail=redact(detail[:_REDACT_SPAN]),
        retry_after=_retry_after(headers),
        code=code,
        param=param,
        error_cls=error_cls,
        server=server,
        request_id=redact(request_id)[:100] if request_id else None,
    )


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` (milliseconds) or ``Retry-After`` (seconds or an HTTP date).

    Returns None when neither header is present or parseable; negative values become 0.
    """
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    ms = lower.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    raw = lower.get("retry-after")
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


def _retry_after(headers: _Headers | Mapping[str, str] | None) -> float | None:
    if headers is None:
        return None
    try:
        return parse_retry_after({str(k): str(v) for k, v in headers.items()})
    except Exception:  # an error path must not fail on a header it cannot read
        return None


def read_json(
    body: str | bytes,
    *,
    label: str,
    model: str,
    base_url: str,
    status: int | None = None,
    error_cls: type[JudgeError] = JudgeError,
    server: str | None = None,
) -> Any:
    """``body`` (a successful reply) parsed as JSON.

    Raises:
        JudgeError: (``error_cls``) a body that is not JSON: a retryable ``server`` error quoting its redacted
            start, with ``status_code`` ``status`` (None: some 2xx); with ``server`` the message names it, not
            the URL and status.
    """
    try:
        return _json.loads(body)
    except ValueError:
        text = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
        shown = "2xx" if status is None else str(status)
        who = f"{server} replied" if server else f"the server at {base_url} replied (HTTP {shown})"
        raise error_cls(
            f"{label}: {who} with a body that is not JSON, starting {redact(text[:_REDACT_SPAN])[:80]!r}",
            model=model,
            status_code=status,
            retryable=True,
            kind=ErrorKind.server,
        ) from None


def malformed_key_error(
    label: str, *, model: str, key_name: str = "API key", error_cls: type[JudgeError] = JudgeError
) -> JudgeError:
    """The ``auth`` error for a key holding a control character (no HTTP header can carry it); the key is never
    quoted."""
    return error_cls(
        f"{label}: the {key_name} contains a control character (e.g. a line break inside it); "
        "no HTTP request can carry it",
        model=model,
        kind=ErrorKind.auth,
    )


#: more tokens than any one reply can have: a server reporting this many (or a negative count) is not believed,
#: so a broken or hostile server cannot turn into a negative or astronomical cost
MAX_REPLY_TOKENS = 100_000_000


def int_or_none(value: Any) -> int | None:
    """A count from a reply (``usage.prompt_tokens``, ``usage.input_tokens``...): ``int(value)``, or None (unknown)
    when absent, not a number, negative or above :data:`MAX_REPLY_TOKENS`."""
    try:
        n = None if value is None else int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return n if n is not None and 0 <= n <= MAX_REPLY_TOKENS else None
