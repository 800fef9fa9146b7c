"""The HTTP transport under our async OpenAI SDK clients.

A judge call's client CPU bounds how fast a wide level of concurrent calls can finish on one event loop
(KnowledgeRetention sends ~100 at once). The SDK's default httpx transport costs ~2 ms of CPU per call here, about a
third of it re-probing every idle keep-alive connection on each request; the SDK's aiohttp transport
(``openai.DefaultAioHttpClient``, installed by the ``openai[aiohttp]`` requirement and recommended by the SDK for
concurrent use) costs ~0.8 ms (``python bench/client_burst.py [--http-client aiohttp]``, 100 and 20 concurrent calls).
Both speak to the same servers with the same auth, timeouts, proxies and errors: the aiohttp one plugs in below the
SDK's httpx-style client, so the SDK maps its errors to the same ``openai.APIError`` types.

Known differences, handled: aiohttp reports a refused or dropped connection as a connect timeout (we read the cause
and say ``connection``), lets its own errors through (a reply that is not HTTP, a reply header line over its 8,190-
byte limit: ``connection`` errors naming the switch to httpx), and refuses URL credentials next to an
``Authorization`` header (base URLs with user-info always use httpx). The mapping of these errors to judge errors is
:func:`deepeval.models.http.errors.transport_error`.

``DEEPEVAL_HTTP_CLIENT``: ``aiohttp`` (the default when it is installed) or ``httpx``. The synchronous client of
``load_model()`` is always httpx. The TypeSafe System One client follows the same setting
(:func:`system_one_client_class`).
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import re
import sys
import urllib.parse
from collections.abc import Mapping
from typing import Any

import httpx
import openai

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError

CHOICES = ("aiohttp", "httpx")


def _httpx2_errors(name: str) -> tuple[type[BaseException], ...]:
    """``httpx2.<name>`` where the SDK builds on httpx2 (openai >= 3), else nothing."""
    try:
        import httpx2  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return ()
    return (getattr(httpx2, name),)


#: what an httpx-style client raises for a timeout / a failed connection, on either httpx distribution
TIMEOUT_ERRORS: tuple[type[BaseException], ...] = (
    httpx.TimeoutException,
    *_httpx2_errors("TimeoutException"),
)
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (httpx.TransportError, *_httpx2_errors("TransportError"))
#: a reply body that does not decode (e.g. ``Content-Encoding: gzip`` over a body that is not gzip)
DECODING_ERRORS: tuple[type[BaseException], ...] = (httpx.DecodingError, *_httpx2_errors("DecodingError"))


def async_http_client_class(base_url: str | None = None) -> Any:
    """The SDK's async HTTP client class to build our per-loop clients on (``DEEPEVAL_HTTP_CLIENT``).

    A ``base_url`` with user-info (``http://user:pass@proxy/v1``, a basic-auth reverse proxy) always gets httpx:
    aiohttp refuses URL credentials next to the ``Authorization`` header the API key goes in.

    Raises:
        ConfigurationError: ``DEEPEVAL_HTTP_CLIENT`` is neither ``aiohttp`` nor ``httpx``, or is ``aiohttp`` while
            the SDK's aiohttp transport is not installed.
    """
    raw = get_settings().get("DEEPEVAL_HTTP_CLIENT")
    choice = transport_setting(raw)
    if choice and choice not in CHOICES:
        raise ConfigurationError(f"DEEPEVAL_HTTP_CLIENT must be one of {', '.join(CHOICES)}, got {raw!r}")
    if choice == "httpx" or has_user_info(base_url):
        return openai.DefaultAsyncHttpxClient
    if _aiohttp_available():
        return openai.DefaultAioHttpClient
    if choice == "aiohttp":
        raise ConfigurationError(
            "DEEPEVAL_HTTP_CLIENT=aiohttp, but the openai SDK's aiohttp transport is not installed "
            "(pip install 'openai[aiohttp]')"
        )
    return openai.DefaultAsyncHttpxClient


#: ``client_kwargs`` a System One client may carry onto the aiohttp transport: plain values both HTTP stacks read the
#: same way. Anything else (``transport=``, ``limits=``, ``mounts=``, event hooks: objects of one httpx distribution)
#: keeps the client on ``httpx.AsyncClient``, as the caller wrote it for.
PORTABLE_CLIENT_KWARGS = frozenset({"headers", "verify", "cert", "proxy", "trust_env", "timeout", "base_url"})


def transport_setting(raw: str | None = None) -> str:
    """``DEEPEVAL_HTTP_CLIENT`` as written, normalised (``""`` when unset); part of a shared client's key, so a judge
    made after the setting changes gets a client on the new transport."""
    if raw is None:
        raw = get_settings().get("DEEPEVAL_HTTP_CLIENT")
    return (raw or "").strip().lower()


def has_user_info(url: str | None) -> bool:
    """Whether ``url`` carries credentials (``user[:password]@``)."""
    return bool(url) and urllib.parse.urlsplit(str(url)).username is not None


def scrub_urls(text: str) -> str:
    """``text`` with every URL in it shown without user-info, query or fragment (an error message from an HTTP
    library may quote the request URL, and a base URL may carry a key in its query)."""
    from deepeval.config.redaction import display_url

    return _URL.sub(lambda m: display_url(m.group(0)), text)


_URL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")


def is_http_library_error(exc: BaseException) -> bool:
    """Whether ``exc`` comes from the HTTP stack itself (aiohttp's own errors that the SDK's aiohttp transport lets
    through, e.g. a reply that is not HTTP or a header over aiohttp's size limit)."""
    aiohttp = sys.modules.get("aiohttp")
    return aiohttp is not None and isinstance(exc, aiohttp.ClientError)


def system_one_client_class(client_kwargs: Mapping[str, Any], base_url: str | None = None) -> Any | None:
    """The SDK's aiohttp-based async client class for a System One client with these ``client_kwargs``, or None
    for plain ``httpx.AsyncClient`` (``DEEPEVAL_HTTP_CLIENT=httpx``, aiohttp missing, or kwargs that belong to
    httpx).

    Raises:
        ConfigurationError: as :func:`async_http_client_class`.
    """
    chosen = async_http_client_class(base_url)
    if (
        chosen is not getattr(openai, "DefaultAioHttpClient", None)
        or not set(client_kwargs) <= PORTABLE_CLIENT_KWARGS
    ):
        return None
    return chosen


@functools.lru_cache(maxsize=1)
def _aiohttp_available() -> bool:
    """Whether this SDK has an aiohttp client and its requirements import (SDKs before it, or without the extra,
    raise when it is built)."""
    if not hasattr(openai, "DefaultAioHttpClient") or importlib.util.find_spec("aiohttp") is None:
        return False
    try:
        openai.DefaultAioHttpClient()  # builds no session until the first request
    except Exception:
        return False
    return True


def connection_failure_in(exc: BaseException) -> BaseException | None:
    """The first error in ``exc``'s cause chain that is a failed connection and not a timeout: an OS-level error
    (refused, reset, unreachable) or an aiohttp connection error (e.g. the server closed the connection without
    replying). The SDK's aiohttp transport maps all of these to a connect *timeout*."""
    seen: set[int] = set()
    cause: BaseException | None = exc.__cause__ or exc.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if not isinstance(cause, (TimeoutError, asyncio.TimeoutError)) and (
            isinstance(cause, OSError) or _is_aiohttp_connection_error(cause)
        ):
            return cause
        cause = cause.__cause__ or cause.__context__
    return None


def _is_aiohttp_connection_error(exc: BaseException) -> bool:
    aiohttp = sys.modules.get("aiohttp")  # only loaded when its transport is in use
    return aiohttp is not None and isinstance(exc, aiohttp.ClientConnectionError)
