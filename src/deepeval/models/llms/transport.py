"""The HTTP transport under our async OpenAI SDK clients.

A judge call's client CPU bounds how fast a wide level of concurrent calls can finish on one event loop
(KnowledgeRetention sends ~100 at once). The SDK's default httpx transport costs ~2 ms of CPU per call here, about a
third of it re-probing every idle keep-alive connection on each request; the SDK's aiohttp transport
(``openai.DefaultAioHttpClient``, installed by the ``openai[aiohttp]`` requirement and recommended by the SDK for
concurrent use) costs ~0.8 ms (``python bench/client_burst.py [--http-client aiohttp]``, 100 and 20 concurrent calls).
Both speak to the same servers with the same auth, timeouts, proxies and errors: the aiohttp one plugs in below the
SDK's httpx-style client, so the SDK maps its errors to the same ``openai.APIError`` types.

``DEEPEVAL_HTTP_CLIENT``: ``aiohttp`` (the default when it is installed) or ``httpx``. The synchronous client of
``load_model()`` is always httpx.
"""

from __future__ import annotations

import functools
import importlib.util
from typing import Any

import openai

from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError

CHOICES = ("aiohttp", "httpx")


def async_http_client_class() -> Any:
    """The SDK's async HTTP client class to build our per-loop clients on (``DEEPEVAL_HTTP_CLIENT``).

    Raises:
        ConfigurationError: ``DEEPEVAL_HTTP_CLIENT`` is neither ``aiohttp`` nor ``httpx``, or is ``aiohttp`` while
            the SDK's aiohttp transport is not installed.
    """
    raw = get_settings().get("DEEPEVAL_HTTP_CLIENT")
    choice = (raw or "").strip().lower()
    if choice and choice not in CHOICES:
        raise ConfigurationError(f"DEEPEVAL_HTTP_CLIENT must be one of {', '.join(CHOICES)}, got {raw!r}")
    if choice == "httpx":
        return openai.DefaultAsyncHttpxClient
    if _aiohttp_available():
        return openai.DefaultAioHttpClient
    if choice == "aiohttp":
        raise ConfigurationError(
            "DEEPEVAL_HTTP_CLIENT=aiohttp, but the openai SDK's aiohttp transport is not installed "
            "(pip install 'openai[aiohttp]')"
        )
    return openai.DefaultAsyncHttpxClient


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
