"""The async HTTP transport under our OpenAI SDK clients (aiohttp by default, httpx on request) and the per-loop
client pool that closes each client on its own loop when that loop shuts down."""

from __future__ import annotations

import asyncio
import gc
import socket
import sys
import warnings
from typing import Any

import openai
import pytest

from deepeval.errors import ConfigurationError, JudgeError
from deepeval.models import LocalModel
from deepeval.models.http.per_loop import PerLoop
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.http.transport import async_http_client_class
from deepeval.models.usage import track_usage
from deepeval.testing.servers import Fault, OpenAIChatServer, schema_responder

KEY = "sk-transport-SECRET-42"
TRANSPORTS = ["aiohttp", "httpx"]


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", request.param)
    return str(request.param)


def _model(url: str, policy: RetryPolicy) -> LocalModel:
    return LocalModel(model="m", base_url=url, api_key=KEY, retry_policy=policy)


def _free_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# -- choosing the transport --------------------------------------------------------------------------------------
def test_default_is_the_sdk_aiohttp_client() -> None:
    assert async_http_client_class() is openai.DefaultAioHttpClient


def test_httpx_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", " HTTPX ")
    assert async_http_client_class() is openai.DefaultAsyncHttpxClient


def test_unknown_transport_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", "curl")
    with pytest.raises(
        ConfigurationError, match=r"DEEPEVAL_HTTP_CLIENT must be one of aiohttp, httpx, got 'curl'"
    ):
        async_http_client_class()


def test_per_loop_client_uses_the_chosen_transport(transport: str) -> None:
    model = _model("http://127.0.0.1:9/v1", RetryPolicy())

    async def http_client_class() -> type:
        client = model._async_clients.get()
        return type(client._client)

    cls = asyncio.run(http_client_class())
    assert issubclass(
        cls, openai.DefaultAioHttpClient if transport == "aiohttp" else openai.DefaultAsyncHttpxClient
    )


# -- the same behaviour on both transports --------------------------------------------------------------------------
def test_replies_usage_and_a_wide_level(transport: str, fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: "fine thanks", latency=0.5) as srv:  # long enough for all 60 to overlap
        model = _model(srv.base_url, fast_policy)

        async def level() -> list[str]:
            replies = await asyncio.gather(*(model.a_generate(f"question {i}") for i in range(60)))
            return [text for text, _ in replies]

        with track_usage() as usage:
            assert asyncio.run(level()) == ["fine thanks"] * 60
        assert srv.counters.replied_ok == 60 and srv.counters.max_in_flight == 60
        assert usage.input_tokens == 120 and usage.output_tokens == 120  # the server's word counts


def test_refused_connection_is_a_connection_error(transport: str) -> None:
    policy = RetryPolicy(max_retries=1, timeout=2, base_delay=0.001, max_delay=0.002)
    with track_usage() as usage, pytest.raises(JudgeError) as info:
        _model(_free_port_url(), policy).generate("q")
    assert info.value.kind == "connection" and usage.retries == 1
    assert "127.0.0.1" in str(info.value) and "timeout" not in str(info.value).lower()


def test_slow_server_is_a_timeout(transport: str) -> None:
    policy = RetryPolicy(max_retries=0, timeout=0.2, base_delay=0.001, max_delay=0.002)
    with OpenAIChatServer(lambda req: "late", latency=1.0) as srv:
        with pytest.raises(JudgeError) as info:
            _model(srv.base_url, policy).generate("q")
    assert info.value.kind == "timeout" and "0.2 s" in str(info.value)


def test_rate_limit_is_retried_and_errors_never_show_the_key(
    transport: str, fast_policy: RetryPolicy
) -> None:
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.rate_limited(retry_after=0.01)]) as srv:
        with track_usage() as usage:
            assert _model(srv.base_url, fast_policy).generate("q")[0] == "ok"
        assert usage.retries == 1 and srv.counters.requests == 2
    echo = {"error": {"message": f"bad key {KEY}"}}
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.http_status(401, echo)] * 9) as srv:
        with pytest.raises(JudgeError) as info:
            _model(srv.base_url, fast_policy).generate("q")
    assert info.value.kind == "auth" and KEY not in str(info.value) and srv.counters.requests == 1


def test_dropped_connection_is_retried(transport: str, fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.disconnect()]) as srv:
        with track_usage() as usage:
            assert _model(srv.base_url, fast_policy).generate("q")[0] == "ok"
    assert usage.retries == 1 and srv.counters.replied_ok == 1


# -- closing at loop shutdown -----------------------------------------------------------------------------------
def _unclosed_warnings(action: Any) -> list[str]:
    """Run ``action()``, collect garbage, and return every ResourceWarning and unraisable error text seen."""
    seen: list[str] = []
    with warnings.catch_warnings():  # garbage left by earlier tests is theirs, not this action's
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    old_hook = sys.unraisablehook
    # Garbage that earlier tests left (their unclosed sockets) is collected first and not counted: only what
    # ``action`` leaves behind is this test's business.
    sys.unraisablehook = lambda u: None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc.collect()
    sys.unraisablehook = lambda u: seen.append(f"{u.exc_type.__name__}: {u.exc_value} ({u.object!r})")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            action()
            gc.collect()
        seen += [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    finally:
        sys.unraisablehook = old_hook
    return seen


def test_per_loop_client_is_closed_when_asyncio_run_ends(transport: str, fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: "ok") as srv:
        model = _model(srv.base_url, fast_policy)
        clients: list[openai.AsyncOpenAI] = []

        async def call() -> str:
            text, _ = await model.a_generate("q")
            clients.append(model._async_clients.get())
            return str(text)

        def run_twice() -> None:
            assert asyncio.run(call()) == "ok" and asyncio.run(call()) == "ok"

        assert _unclosed_warnings(run_twice) == []
    assert len(clients) == 2 and clients[0] is not clients[1]  # one client per loop
    assert all(client.is_closed() for client in clients)
    assert model._async_clients._clients == {}  # forgotten as well as closed


def test_evaluate_leaves_no_open_session(transport: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from deepeval import evaluate
    from deepeval.evaluate import DisplayConfig
    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.test_case import LLMTestCase

    replies = {  # by the structured-output schema the metric asks for
        "Statements": {"statements": ["Paris is the capital."]},
        "Verdicts": {"verdicts": [{"verdict": "yes", "reason": None}]},
        "AnswerRelevancyScoreReason": {"reason": "on topic"},
    }

    with OpenAIChatServer(schema_responder(replies)) as srv:
        monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
        monkeypatch.setenv("LOCAL_MODEL_NAME", "m")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", srv.base_url)
        holder: list[Any] = []

        def run() -> None:
            holder.append(
                evaluate(
                    [
                        LLMTestCase(input=f"Capital {i}?", actual_output="Paris is the capital.")
                        for i in range(5)
                    ],
                    [AnswerRelevancyMetric(eval_mode="llm")],
                    display_config=DisplayConfig(show_indicator=False, print_results=False),
                )
            )

        assert _unclosed_warnings(run) == []
        rows = [m for t in holder[0].test_results for m in t.metrics_data]
        assert [m.error for m in rows] == [None] * 5 and [m.score for m in rows] == [1.0] * 5
        assert srv.counters.replied_ok == 15  # statements, verdicts, reason per test case


# -- PerLoop itself ---------------------------------------------------------------------------------------------------
class _Client:
    def __init__(self) -> None:
        self.closed_on: asyncio.AbstractEventLoop | None = None
        self.close_calls = 0


def _pool(fail: bool = False) -> tuple[PerLoop[_Client], list[_Client]]:
    made: list[_Client] = []

    def factory() -> _Client:
        made.append(_Client())
        return made[-1]

    async def closer(client: _Client) -> None:
        await asyncio.sleep(0)  # a real close awaits I/O on the loop
        client.closed_on = asyncio.get_running_loop()
        client.close_calls += 1
        if fail:
            raise OSError("socket already gone")

    return PerLoop(factory, closer), made


def test_pool_closes_each_client_on_its_own_loop_at_shutdown() -> None:
    pool, made = _pool()
    loops: list[asyncio.AbstractEventLoop] = []

    async def use() -> None:
        loops.append(asyncio.get_running_loop())
        assert pool.get() is pool.get()  # one client per loop

    asyncio.run(use())
    asyncio.run(use())
    assert len(made) == 2
    assert [c.closed_on for c in made] == loops and [c.close_calls for c in made] == [1, 1]


def test_pool_aclose_closes_once_and_a_failing_close_does_not_break_shutdown() -> None:
    pool, made = _pool(fail=True)

    async def use() -> None:
        pool.get()
        await pool.aclose()
        await pool.aclose()  # nothing left to close

    asyncio.run(use())
    assert len(made) == 1 and made[0].close_calls == 1


def test_pool_on_a_loop_closed_without_shutdown_reports_nothing() -> None:
    pool, made = _pool()

    def hand_made_loop() -> None:
        loop = asyncio.new_event_loop()

        async def use() -> None:
            pool.get()

        loop.run_until_complete(use())
        loop.close()  # no shutdown_asyncgens(): the client is dropped unclosed, silently

        async def again() -> None:
            pool.get()  # prunes the closed loop's entry

        asyncio.run(again())

    assert _unclosed_warnings(hand_made_loop) == []
    assert [c.close_calls for c in made] == [0, 1]


# -- the System One client follows the same setting ---------------------------------------------------------------
def _s1_questions() -> dict[str, Any]:
    from deepeval.models.system_one import NoulQuestion

    return {"ok": NoulQuestion(instructions="Is the statement relevant?", true="yes", false="no")}


def test_system_one_client_class_follows_the_setting(transport: str) -> None:
    import httpx

    from deepeval.models import TypeSafeModel

    async def classes() -> list[type]:
        plain = TypeSafeModel(api_key=KEY, base_url="http://127.0.0.1:9")
        own = TypeSafeModel(api_key=KEY, base_url="http://127.0.0.1:9", transport=httpx.AsyncHTTPTransport())
        with_headers = TypeSafeModel(api_key=KEY, base_url="http://127.0.0.1:9", headers={"X-Team": "a"})
        return [type(m._clients.get()) for m in (plain, own, with_headers)]

    plain, own, with_headers = asyncio.run(classes())
    expected = openai.DefaultAioHttpClient if transport == "aiohttp" else httpx.AsyncClient
    assert plain is expected and with_headers is expected
    assert own is httpx.AsyncClient  # a caller's httpx transport keeps the client on httpx


def test_system_one_decides_and_maps_errors_on_both(transport: str, fast_policy: RetryPolicy) -> None:
    from deepeval.errors import SystemOneError
    from deepeval.models import TypeSafeModel
    from deepeval.testing.servers import SystemOneServer, wire_noul

    with SystemOneServer(lambda state, qs: {"ok": wire_noul(0.8)}, api_key=KEY, latency=0.05) as srv:
        model = TypeSafeModel(
            api_key=KEY, base_url=srv.base_url, retry_policy=fast_policy, headers={"X-T": "1"}
        )
        answers, _ = model.decide({"input": "x"}, _s1_questions())
        assert answers.nouls["ok"].probability == 0.8 and srv.counters.requests == 1
    policy = RetryPolicy(max_retries=1, timeout=2, base_delay=0.001, max_delay=0.002)
    with track_usage() as usage, pytest.raises(SystemOneError) as info:
        TypeSafeModel(api_key=KEY, base_url=_free_port_url()[: -len("/v1")], retry_policy=policy).decide(
            {"input": "x"}, _s1_questions()
        )
    assert info.value.kind == "connection" and usage.retries == 1 and KEY not in str(info.value)
    slow = RetryPolicy(max_retries=0, timeout=0.2, base_delay=0.001, max_delay=0.002)
    with SystemOneServer(lambda state, qs: {"ok": wire_noul(0.8)}, api_key=KEY, latency=1.0) as srv:
        with pytest.raises(SystemOneError) as info:
            TypeSafeModel(api_key=KEY, base_url=srv.base_url, retry_policy=slow).decide(
                {"input": "x"}, _s1_questions()
            )
    assert info.value.kind == "timeout"


def test_system_one_clients_are_closed_at_loop_shutdown(transport: str, fast_policy: RetryPolicy) -> None:
    from deepeval.models import TypeSafeModel
    from deepeval.testing.servers import SystemOneServer, wire_noul

    with SystemOneServer(lambda state, qs: {"ok": wire_noul(0.6)}, api_key=KEY) as srv:
        model = TypeSafeModel(api_key=KEY, base_url=srv.base_url, retry_policy=fast_policy)
        clients: list[Any] = []

        async def call() -> float:
            answers, _ = await model.a_decide({"input": "x"}, _s1_questions())
            clients.append(model._clients.get())
            return answers.nouls["ok"].probability

        assert _unclosed_warnings(lambda: [asyncio.run(call()) for _ in range(2)]) == []
    assert len(clients) == 2 and all(c.is_closed for c in clients)


# -- sharing one client per loop among judges with one configuration ---------------------------------------------
def test_judges_with_one_configuration_share_a_client_per_loop(fast_policy: RetryPolicy) -> None:
    import httpx

    from deepeval.models.http.per_loop import share_key

    with OpenAIChatServer(lambda req: "ok") as srv:
        a, b = _model(srv.base_url, fast_policy), _model(srv.base_url, fast_policy)
        other_key = LocalModel(model="m", base_url=srv.base_url, api_key="sk-other", retry_policy=fast_policy)
        own = LocalModel(
            model="m",
            base_url=srv.base_url,
            api_key=KEY,
            retry_policy=fast_policy,
            default_headers={"X": "1"},
        )

        async def clients() -> list[Any]:
            for m in (a, b, other_key, own):
                await m.a_generate("q")
            return [m._async_clients.get() for m in (a, b, other_key, own)]

        ca, cb, c_other, c_own = asyncio.run(clients())
        assert ca is cb and ca is not c_other and ca is not c_own and c_other is not c_own
        assert all(c.is_closed() for c in (ca, c_other, c_own))  # closed when that loop shut down
        assert srv.counters.replied_ok == 4
    assert share_key("x", {"headers": {"a": "1"}}, [1, 2.0, None]) == share_key(
        "x", {"headers": {"a": "1"}}, [1, 2.0, None]
    )
    assert share_key("x", {"transport": httpx.AsyncHTTPTransport()}) is None  # an object option: never shared
