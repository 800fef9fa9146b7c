"""One TLS context per process for the judge clients (deepeval.models.http.tls)."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import httpx
import openai
import pytest

from deepeval.models import LocalModel
from deepeval.models.http.tls import library_of, shared_context
from deepeval.models.system_one.typesafe import TypeSafeModel


def test_shared_context_is_built_once_with_default_verification() -> None:
    context = shared_context(httpx)
    assert context is not None and shared_context(httpx) is context
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname is True
    library = library_of(openai.DefaultAsyncHttpxClient)
    assert library is not None and library.__name__ in ("httpx", "httpx2")


def test_new_judge_clients_build_no_tls_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every model built a sync client and every event loop an async one, each loading the CA bundle
    (40-90 ms, more with proxies set). Now only the first client of the process does."""

    async def clients() -> None:
        for i in range(3):
            LocalModel(model=f"m{i}", base_url="http://127.0.0.1:9/v1")._client()
            TypeSafeModel(api_key="k", base_url="http://127.0.0.1:9")._clients.get()

    asyncio.run(clients())  # warm: the process-wide contexts exist now
    built: list[Any] = []
    real = ssl.create_default_context

    def counting(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counting)
    asyncio.run(clients())
    assert built == []
