"""The most bytes of one reply body that our own HTTP clients read (``DEEPEVAL_JUDGE_MAX_REPLY_BYTES``, default
32 MiB): the OpenAI-compatible judges' SDK clients, the :class:`~deepeval.models.http.json_client.JSONEndpoint`
clients (Anthropic, Gemini, Ollama, Bedrock, the embedding models) and the TypeSafe System One client.

A judge reply is a few KB; a server that sends hundreds of MB (a broken proxy, a hostile endpoint) was read whole
into memory, several copies deep (a 200 MB reply: 911 MB peak). :func:`capped_event_hooks` gives a client a
response hook, run before the body is read, that refuses a ``Content-Length`` over the limit at once and otherwise
counts the body's bytes as they arrive and stops at the limit: :class:`ReplyTooLarge` is raised from the read (the
connection is closed, nothing past the limit is kept), and :func:`deepeval.models.http.errors.transport_error` maps
it to the judge's error naming the limit, so the measure's row fails and the run goes on.

The limit bounds both the bytes on the wire and the decoded body: a ``Content-Encoding: gzip`` or ``deflate`` reply
(the codings our clients decode) is decoded here, in pieces of at most the room left under the limit, and stops at the
limit as a plain one does (a 400 MiB body gzipped to 0.4 MB was read and decoded whole: 1.73 GB peak); the library
then sees a plain body. Other codings (``br``, ``zstd``: decoded by the library only where ``brotli`` / ``zstandard``
are installed; several codings at once) are left to the library, their wire bytes counted. A client passed in by the
caller (``http_client=``) is the caller's and is left as it is.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any

from deepeval.config.settings import Settings, get_settings

SETTING = "DEEPEVAL_JUDGE_MAX_REPLY_BYTES"
DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024


class ReplyTooLarge(Exception):
    """A reply body over ``limit`` bytes (``announced``: the size its ``Content-Length`` gave, when it gave one;
    ``coding``: the ``Content-Encoding`` whose decoded body went over the limit)."""

    def __init__(self, limit: int, announced: int | None = None, coding: str | None = None) -> None:
        self.limit = limit
        self.announced = announced
        self.coding = coding
        if coding is not None:
            size = f"decodes ({coding}) to more bytes"
        else:
            size = "is " + (f"{announced:,} bytes" if announced is not None else "more bytes")
        super().__init__(f"the reply body {size}, over the limit of {limit:,} bytes ({SETTING})")


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
    coding = _our_coding(response.headers)
    if coding is not None:  # decoded here, within the limit; the library then reads a plain body
        del response.headers["content-encoding"]
    response.stream = _capped_stream(base)(response.stream, limit, coding, _decoding_error(response))


#: the codings decoded here (as httpx decodes them): zlib's ``wbits`` for each
_CODINGS = {"gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}


def _our_coding(headers: Any) -> str | None:
    """The one ``Content-Encoding`` this module decodes (``gzip`` or ``deflate``, ``identity`` aside), or None for a
    plain body or codings left to the library."""
    codings = [c.strip().lower() for c in ",".join(headers.get_list("content-encoding")).split(",")]
    codings = [c for c in codings if c and c != "identity"]
    return codings[0] if len(codings) == 1 and codings[0] in _CODINGS else None


def _decoding_error(response: Any) -> type[Exception]:
    """The ``DecodingError`` of the library ``response`` comes from (a body that does not decode reads as it does
    when the library decodes it)."""
    from deepeval.models.http.tls import library_of

    library = library_of(type(response))
    error = getattr(library, "DecodingError", None) if library is not None else None
    return error if isinstance(error, type) and issubclass(error, Exception) else ValueError


class _Inflate:
    """An incremental gzip / deflate decoder that never produces more than ``limit`` bytes in all: each step is
    asked for at most the room left (plus one byte, to see that the body goes past it)."""

    def __init__(self, coding: str, limit: int, error: type[Exception]) -> None:
        self._coding, self._limit, self._error = coding, limit, error
        self._z = zlib.decompressobj(_CODINGS[coding])
        self._first = True
        self._made = 0

    def decode(self, data: bytes) -> Iterator[bytes]:
        while data and not self._z.eof:
            try:
                out = self._z.decompress(data, self._limit - self._made + 1)
            except zlib.error as exc:
                if (
                    self._first and self._coding == "deflate"
                ):  # as httpx: a raw deflate stream, no zlib header
                    self._first = False
                    self._z = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise self._error(str(exc)) from exc
            self._first = False
            yield from self._count(out)
            data = self._z.unconsumed_tail

    def flush(self) -> Iterator[bytes]:
        try:
            out = self._z.flush(self._limit - self._made + 1)
        except zlib.error as exc:
            raise self._error(str(exc)) from exc
        yield from self._count(out)

    def _count(self, out: bytes) -> Iterator[bytes]:
        self._made += len(out)
        if self._made > self._limit:
            raise ReplyTooLarge(self._limit, coding=self._coding)
        if out:
            yield out


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
            def __init__(
                self, inner: Any, limit: int, coding: str | None = None, error: type[Exception] = ValueError
            ) -> None:
                self._inner = inner
                self._limit = limit
                self._inflate = None if coding is None else _Inflate(coding, limit, error)

            async def __aiter__(self) -> AsyncIterator[bytes]:
                seen = 0
                async for chunk in self._inner:
                    seen += len(chunk)
                    if seen > self._limit:
                        raise ReplyTooLarge(self._limit)
                    if self._inflate is None:
                        yield chunk
                        continue
                    for out in self._inflate.decode(chunk):
                        yield out
                if self._inflate is not None:
                    for out in self._inflate.flush():
                        yield out

            async def aclose(self) -> None:
                await self._inner.aclose()

        cls = _CAPPED.setdefault(base, CappedStream)
    return cls
