"""The judge clients' HTTP transport (aiohttp by default, httpx on request) must report the same failures
the same way (src/deepeval/models/llms/transport.py: "same auth, timeouts, proxies and errors")."""

from __future__ import annotations

import time

import pytest

from _support.markers import REGRESSION
from deepeval.errors import JudgeError
from deepeval.models import LocalModel
from deepeval.models.retry import RetryPolicy
from deepeval.testing.servers import Fault, OpenAIChatServer

pytestmark = REGRESSION


def test_dropped_connection_is_a_connection_error_on_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a server closing the connection without a reply was reported as kind='timeout' ('no reply
    within 30 s') after ~0.01 s on the aiohttp transport; httpx said kind='connection'."""
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


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_key_with_a_line_break(monkeypatch: pytest.MonkeyPatch, transport: str) -> None:
    """Regression: an API key with a trailing newline (read from a file) made generate() raise a bare ValueError
    ('Forbidden control character detected in headers') on the aiohttp transport. Surrounding whitespace is now
    dropped; a control character inside a key is refused with an auth error that does not quote the key."""
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    policy = RetryPolicy(max_retries=0, timeout=5)
    with OpenAIChatServer(lambda req: "ok") as srv:
        assert (
            LocalModel(
                model="m", base_url=srv.base_url, api_key="sk-breaker3-SECRET\n", retry_policy=policy
            ).generate("q")[0]
            == "ok"
        )
        assert srv.counters.authorization == ["Bearer sk-breaker3-SECRET"]
        with pytest.raises(JudgeError) as info:
            LocalModel(
                model="m", base_url=srv.base_url, api_key="sk-bre\naker3-SECRET", retry_policy=policy
            ).generate("q")
        assert srv.counters.requests == 1  # nothing sent for the malformed key
    assert (
        info.value.kind == "auth"
        and "SECRET" not in str(info.value)
        and "control character" in str(info.value)
    )


def test_system_one_key_with_a_line_break(monkeypatch: pytest.MonkeyPatch) -> None:
    from deepeval.errors import SystemOneError
    from deepeval.models import TypeSafeModel
    from deepeval.models.system_one import NoulQuestion
    from deepeval.testing.servers import SystemOneServer, wire_noul

    questions = {"ok": NoulQuestion(instructions="Relevant?", true="yes", false="no")}
    with SystemOneServer(lambda state, qs: {"ok": wire_noul(0.7)}, api_key="ts-SECRET") as srv:
        model = TypeSafeModel(api_key=" ts-SECRET\r\n", base_url=srv.base_url)
        assert model.decide({"input": "x"}, questions)[0].nouls["ok"].probability == 0.7
        with pytest.raises(SystemOneError) as info:
            TypeSafeModel(api_key="ts-\x00SECRET", base_url=srv.base_url).decide({"input": "x"}, questions)
    assert info.value.kind == "auth" and "SECRET" not in str(info.value)


def test_bad_transport_setting_leaves_no_unawaited_coroutine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: generate() with an invalid DEEPEVAL_HTTP_CLIENT raised the ConfigurationError but left its
    a_generate coroutine unawaited (RuntimeWarning)."""
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


def test_judge_dropped_on_a_running_loop_leaves_no_unclosed_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a judge made per request on a long-lived loop (FastAPI-style, no aclose()) left its aiohttp
    session to the garbage collector, which reported 'Unclosed client session' several times for 3 requests. Judges
    with one configuration now share one client per loop, closed when the loop shuts down."""
    import asyncio
    import gc

    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.test_case import LLMTestCase

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "aiohttp")
    from _support.judge_replies import AR_ALL_RELEVANT
    from deepeval.testing.servers import schema_responder

    reports: list[str] = []
    with OpenAIChatServer(schema_responder(AR_ALL_RELEVANT)) as srv:

        async def handle_request(i: int) -> float:
            metric = AnswerRelevancyMetric(
                model=LocalModel(model="m", base_url=srv.base_url), eval_mode="llm"
            )
            return await metric.a_measure(
                LLMTestCase(input=f"Capital {i}?", actual_output="Paris is the capital.")
            )

        async def app() -> list[float]:
            asyncio.get_running_loop().set_exception_handler(
                lambda loop, ctx: reports.append(str(ctx["message"]))
            )
            scores = [await handle_request(i) for i in range(3)]
            gc.collect()
            await asyncio.sleep(0.1)  # the app keeps serving
            gc.collect()
            return scores

        assert asyncio.run(app()) == [1.0, 1.0, 1.0]
    assert [r for r in reports if "Unclosed" in r] == []
