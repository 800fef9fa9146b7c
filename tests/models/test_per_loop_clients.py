"""Judges with one configuration share one HTTP client per event loop (models/http/per_loop.py)."""

from __future__ import annotations

import asyncio
import gc

import pytest

from _support.markers import REGRESSION
from deepeval.models import LocalModel, OpenAIModel
from deepeval.models.http import per_loop
from deepeval.models.system_one.typesafe import TypeSafeModel
from deepeval.testing.servers import OpenAIChatServer, SystemOneServer

pytestmark = REGRESSION


def test_shared_client_registry_forgets_dropped_judges_and_their_keys() -> None:
    """Regression: the shared-client registry kept one entry per judge configuration forever, raw API key included (400
    entries after 400 dropped judges)."""

    def leftover() -> list[object]:
        return [k for k in list(per_loop._SHARED) if "brk4-" in repr(k)]

    assert leftover() == []
    with OpenAIChatServer(keep_bodies=False) as srv:

        async def one(i: int) -> None:
            judge = OpenAIModel(model="gpt-4.1", api_key=f"sk-brk4-{i}", base_url=srv.base_url)
            assert (await judge.a_generate("hi"))[0] == "ok"
            await judge.aclose()

        async def main() -> None:
            for i in range(200):
                await one(i)

        asyncio.run(main())
    for i in range(200):
        TypeSafeModel(api_key=f"ts-brk4-{i}")
    gc.collect()
    left = leftover()
    # a web app making a judge per request with a per-tenant key grows this without bound
    assert len(left) == 0, f"{len(left)} registry entries still hold API keys, e.g. {left[0]!r}"


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_aclose_of_one_judge_does_not_break_another_judges_calls(
    transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: one judge's aclose() closed the client it shared with another judge and failed that judge's 3 calls
    in flight."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    with OpenAIChatServer(latency=0.3) as srv:
        # e.g. a web app: a judge per request, each handler closes its judge when it is done
        a = LocalModel(model="m", base_url=srv.base_url, max_retries=0)
        b = LocalModel(model="m", base_url=srv.base_url, max_retries=0)

        async def main() -> list[object]:
            await b.a_generate("warm up")
            calls = [asyncio.create_task(b.a_generate(f"q{i}")) for i in range(3)]
            await asyncio.sleep(0.1)
            await a.aclose()
            return await asyncio.gather(*calls, return_exceptions=True)

        results = asyncio.run(main())
    failures = [f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)]
    assert failures == []
    assert [r[0] for r in results] == ["ok"] * 3  # type: ignore[index]


# ----------------------------------------------------------------------------------------------------------
# Judges with one configuration share one HTTP client per event loop (models/http/per_loop.py), but the
# shared-client key leaves out ``DEEPEVAL_HTTP_CLIENT``, which the client factory reads.


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
