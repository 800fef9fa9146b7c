"""Judges with one configuration share one HTTP client per event loop (models/llms/per_loop.py), but the
shared-client key leaves out ``DEEPEVAL_HTTP_CLIENT``, which the client factory reads."""

from __future__ import annotations

import asyncio

import pytest

from _support.markers import REGRESSION
from deepeval.models import OpenAIModel
from deepeval.models.system_one.typesafe import TypeSafeModel
from deepeval.testing.servers import OpenAIChatServer, SystemOneServer

pytestmark = REGRESSION


def test_openai_judge_made_after_switching_to_httpx_uses_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (fixed): (per_loop share key): DEEPEVAL_HTTP_CLIENT is read by the client factory but is not part of
    share_key, so on a loop that already has a client for the same configuration (a Jupyter session, a web app) a
    judge made after setting DEEPEVAL_HTTP_CLIENT=httpx gets the earlier judge's aiohttp client: observed
    _InstalledAioHttpClient for the httpx judge (same object as the aiohttp judge's), expected an httpx client"""
    with OpenAIChatServer() as srv:

        async def main() -> tuple[str, str]:
            monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
            a = OpenAIModel(model="gpt-4.1", api_key="sk-brk5-transport", base_url=srv.base_url)
            assert (await a.a_generate("hi"))[0] == "ok"
            monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "httpx")
            b = OpenAIModel(model="gpt-4.1", api_key="sk-brk5-transport", base_url=srv.base_url)
            assert (await b.a_generate("hi"))[0] == "ok"
            names = type(a._client()._client).__name__, type(b._client()._client).__name__
            await a.aclose()
            await b.aclose()
            return names

        first, second = asyncio.run(main())
    assert "AioHttp" in first
    assert "AioHttp" not in second, f"judge made with DEEPEVAL_HTTP_CLIENT=httpx got {second}"


def test_typesafe_judge_made_after_switching_to_httpx_uses_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (fixed): (per_loop share key): the TypeSafe System One client has the same gap: after
    DEEPEVAL_HTTP_CLIENT=httpx a second TypeSafeModel(api_key, base_url) on the same loop gets the first one's
    openai._InstalledAioHttpClient (expected httpx.AsyncClient, which a judge with another key does get)"""
    with SystemOneServer() as srv:

        async def main() -> tuple[str, str]:
            monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
            a = TypeSafeModel(api_key="ts-brk5-transport", base_url=srv.base_url)
            first = type(a._clients.get()).__name__
            monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "httpx")
            b = TypeSafeModel(api_key="ts-brk5-transport", base_url=srv.base_url)
            second = type(b._clients.get()).__name__
            await a.aclose()
            await b.aclose()
            return first, second

        first, second = asyncio.run(main())
    assert "AioHttp" in first
    assert second == "AsyncClient", f"judge made with DEEPEVAL_HTTP_CLIENT=httpx got {second}"
