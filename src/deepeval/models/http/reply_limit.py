"""The most bytes of one reply body that our own HTTP clients read (``DEEPEVAL_JUDGE_MAX_REPLY_BYTES``, default
32 MiB): the OpenAI-compatible judges' SDK clients, the :class:`~deepeval.models.http.json_client.JSONEndpoint`
clients (Anthropic, Gemini, Ollama, Bedrock, the embedding models) and the TypeSafe System One client.

A judge reply is a few KB; a server that sends hundreds of MB (a broken proxy, a hostile endpoint) was read whole
into memory, several copies deep (a 200 MB reply: 911 MB peak). :func:`capped_event_hooks` gives a client a
response hook, run before the body is read, that refuses a ``Content-Length`` over the limit at once and otherwise
counts the body's bytes as they arrive and stops at the limit: :class:`ReplyTooLarge` is raised from the read (the
connection is closed, nothing past the limit is kept), and :func:`deepeval.models.http.errors.transport_error` maps
it to the judge's error naming the limit, so the measure's row fails and the run goes on.

The bytes counted are those on the wire (a compressed body is counted compressed). A client passed in by the
caller (``http_client=``) is the caller's and is left as it is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

from deepeval.config.settings import Settings, get_settings

SETTING = "DEEPEVAL_JUDGE_MAX_REPLY_BYTES"
DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024


class ReplyTooLarge(Exception):
    """A reply body over ``limit`` bytes (``announced``: the size its ``Content-Length`` gave, when it gave one)."""

    def __init__(self, limit: int, announced: int | None = None) -> None:
        self.limit = limit
        self.announced = announced
        size = f"{announced:,} bytes" if announced is not None else "more bytes"
        super().__init__(f"the reply body is {size}, over the limit of {limit:,} bytes ({SETTING})")


def max_reply_bytes(settings: Settings | None = None) -> int:
    """``DEEPEVAL_JUDGE_MAX_REPLY_BYTES``, default :data:`DEFAULT_MAX_REPLY_BYTES`.

    Raises:
        ConfigurationError: a value that is not a positive integer.
    """
    return (settings or get_settings()).get_positive_int(SETTING, DEFAULT_MAX_REPLY_BYTES)


def capped_event_hooks(
    given: Mapping[str, Any] | None = None, limit: int | None = None
) -> dict[str, list[Callable[..., Awaitable[Any]]]]:
    """``event_hooks`` for an async httpx-style client (``httpx``, ``httpx2``, the openai SDK's clients): the
    ``given`` ones (a caller's ``client_kwargs``), then the reply cap at ``limit`` bytes (default:
    :func:`max_reply_bytes`, read now)."""
    cap = max_reply_bytes() if limit is None else limit
    hooks: dict[str, list[Callable[..., Awaitable[Any]]]] = {
        name: list(value) for name, value in (given or {}).items()
    }

    async def cap_reply(response: Any) -> None:
        _cap(response, cap)

    hooks.setdefault("response", []).append(cap_reply)
    return hooks


def _cap(response: Any, limit: int) -> None:
    """Refuse ``response`` when its ``Content-Length`` is over ``limit``; otherwise wrap its body stream so that
    reading stops at ``limit`` bytes."""
    raw = response.headers.get("content-length")
    try:
        announced = int(raw) if raw is not None else None
    except ValueError:
        announced = None
    if announced is not None and announced > limit:
        raise ReplyTooLarge(limit, announced)
    base = _async_byte_stream_class(response)
    if base is None:  # not an httpx-style response: left as it is
        return
    response.stream = _capped_stream(base)(response.stream, limit)


def _async_byte_stream_class(response: Any) -> type | None:
    """``AsyncByteStream`` of the library ``response`` comes from (httpx checks the stream's class by it)."""
    from deepeval.models.http.tls import library_of

    library = library_of(type(response))
    return getattr(library, "AsyncByteStream", None) if library is not None else None


_CAPPED: dict[type, type] = {}


def _capped_stream(base: type) -> type:
    """A subclass of ``base`` (one library's ``AsyncByteStream``) that passes an inner stream's chunks on until
    they add up to more than its limit, then raises :class:`ReplyTooLarge`."""
    cls = _CAPPED.get(base)
    if cls is None:

        class CappedStream(base):  # type: ignore[misc,valid-type]
            def __init__(self, inner: Any, limit: int) -> None:
                self._inner = inner
                self._limit = limit

            async def __aiter__(self) -> AsyncIterator[bytes]:
                seen = 0
                async for chunk in self._inner:
                    seen += len(chunk)
                    if seen > self._limit:
                        raise ReplyTooLarge(self._limit)
                    yield chunk

            async def aclose(self) -> None:
                await self._inner.aclose()

        cls = _CAPPED.setdefault(base, CappedStream)
    return cls
