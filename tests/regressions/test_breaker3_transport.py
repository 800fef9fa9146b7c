"""Breaker 3: the judge clients' HTTP transport (aiohttp by default, httpx on request) must report the same failures
the same way (src/deepeval/models/llms/transport.py: "same auth, timeouts, proxies and errors")."""

from __future__ import annotations

import time

import pytest

from deepeval.errors import JudgeError
from deepeval.models import LocalModel
from deepeval.models.retry import RetryPolicy
from deepeval.testing.servers import Fault, OpenAIChatServer


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (transport): on the default aiohttp transport a server that closes the connection without a reply "
        "is reported as kind='timeout', 'no reply within 30 s (DEEPEVAL_JUDGE_TIMEOUT)' after ~0.01 s; the httpx "
        "transport says kind='connection' (RemoteProtocolError)"
    ),
)
def test_dropped_connection_is_a_connection_error_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    policy = RetryPolicy(max_retries=0, timeout=30)
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.disconnect()]) as srv:
        model = LocalModel(model="m", base_url=srv.base_url, retry_policy=policy)
        t0 = time.perf_counter()
        with pytest.raises(JudgeError) as info:
            model.generate("q")
        elapsed = time.perf_counter() - t0
    assert elapsed < 5  # it failed at once: nothing timed out
    assert info.value.kind == "connection", str(info.value)
    assert "within" not in str(info.value)


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (transport): an API key with a trailing newline (read from a file) makes generate() raise a bare "
        "ValueError('Forbidden control character detected in headers...') on the aiohttp transport; httpx raises "
        "JudgeError(kind='connection'); the class contract is JudgeError from every call"
    ),
)
def test_newline_in_key_is_a_judge_error_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    key = "sk-breaker3-SECRET\n"
    with OpenAIChatServer(lambda req: "ok") as srv:
        model = LocalModel(
            model="m", base_url=srv.base_url, api_key=key, retry_policy=RetryPolicy(max_retries=0, timeout=5)
        )
        with pytest.raises(JudgeError) as info:
            model.generate("q")
    assert "SECRET" not in str(info.value)


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (transport): sync generate() with an invalid DEEPEVAL_HTTP_CLIENT raises the ConfigurationError but "
        "leaves its a_generate coroutine unawaited: RuntimeWarning \"coroutine 'OpenAICompatibleLLM.a_generate' "
        'was never awaited"'
    ),
)
def test_bad_transport_setting_leaves_no_unawaited_coroutine(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import warnings

    from deepeval.errors import ConfigurationError

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "requests")
    model = LocalModel(model="m", base_url="http://127.0.0.1:9/v1", retry_policy=RetryPolicy(max_retries=0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ConfigurationError, match="DEEPEVAL_HTTP_CLIENT must be one of"):
            model.generate("q")
        gc.collect()
    never_awaited = [str(w.message) for w in caught if "never awaited" in str(w.message)]
    assert never_awaited == []
