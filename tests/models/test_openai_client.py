"""OpenAIModel / LocalModel against the real loopback OpenAI server: ladder, logprobs, usage, cost, retries, errors."""

from __future__ import annotations

import asyncio
import json
import math
import time

import openai
import pytest
from pydantic import BaseModel

from deepeval.errors import ConfigurationError, JudgeError, StructuredOutputError
from deepeval.models import GPTModel, LocalModel, OpenAIModel
from deepeval.models.http.rate_limit import DEFAULT_MAX_CONCURRENCY
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.llms.response_format import response_format, strict_schema
from deepeval.models.structured import a_generate_structured
from deepeval.models.usage import track_usage
from deepeval.testing.servers import Fault, OpenAIChatServer

KEY = "sk-test-SECRET-0123456789"


class Verdict(BaseModel):
    verdict: str
    reason: str


GOOD = {"content": {"verdict": "yes", "reason": "on topic"}}


def _client(srv: OpenAIChatServer, policy: RetryPolicy, **kw) -> OpenAIModel:
    return OpenAIModel(api_key=KEY, base_url=srv.base_url, retry_policy=policy, **kw)


def _prompt(body: dict) -> str:
    return body["messages"][0]["content"]


# -- structured-output ladder ------------------------------------------------------------------------------------


def test_json_schema_rung_sends_strict_schema(fast_policy) -> None:
    with OpenAIChatServer(lambda req: GOOD, api_key=KEY) as srv:
        model = _client(srv, fast_policy)
        result, _ = model.generate("Is the reply on topic?", Verdict)
        assert result == Verdict(verdict="yes", reason="on topic")
        body = srv.counters.bodies[0]
        rf = body["response_format"]
        assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
        assert rf["json_schema"]["name"] == "Verdict"
        assert rf["json_schema"]["schema"]["additionalProperties"] is False
        assert rf["json_schema"]["schema"]["required"] == ["verdict", "reason"]
        assert body["temperature"] == 0.0 and body["model"] == "gpt-5.4"
        assert _prompt(body) == "Is the reply on topic?"  # no schema text needed on this rung
        assert srv.counters.authorization == [f"Bearer {KEY}"]


def test_a_schema_with_a_free_form_object_is_sent_without_strict_mode() -> None:
    """OpenAI's strict mode cannot express a ``dict[str, ...]`` field (KnowledgeRetention's ``Knowledge.data``): such
    a schema goes out with ``strict: false`` (the server still follows it) instead of drawing a 400 that would move
    the client down a rung for every later call."""
    from deepeval.metrics.knowledge_retention.schema import Knowledge

    rf = response_format("json_schema", Knowledge)
    assert rf is not None and rf["type"] == "json_schema"
    assert rf["json_schema"]["name"] == "Knowledge" and rf["json_schema"]["strict"] is False
    data = rf["json_schema"]["schema"]["properties"]["data"]
    free = next(node for node in data["anyOf"] if node.get("type") == "object")
    assert "properties" not in free and free["additionalProperties"] != False  # noqa: E712 - the value schema
    assert response_format("json_schema", Verdict)["json_schema"]["strict"] is True  # type: ignore[index]


def test_strict_schema_is_built_once_and_callers_get_their_own_copy() -> None:
    first = response_format("json_schema", Verdict)
    second = response_format("json_schema", Verdict)
    assert first is not None and second is not None
    assert first["json_schema"]["schema"] is second["json_schema"]["schema"]  # no per-call regeneration
    mine = strict_schema(Verdict)
    assert mine == first["json_schema"]["schema"] and mine is not first["json_schema"]["schema"]
    assert mine is not None
    mine["properties"].clear()  # a caller editing its copy changes nothing that is sent
    assert set(response_format("json_schema", Verdict)["json_schema"]["schema"]["properties"]) == {  # type: ignore[index]
        "verdict",
        "reason",
    }


def test_ladder_moves_to_json_object_and_remembers(fast_policy) -> None:
    with OpenAIChatServer(lambda req: GOOD, supported_formats=["json_object"]) as srv:
        model = _client(srv, fast_policy)
        with track_usage() as usage:
            assert model.generate("q1", Verdict)[0].verdict == "yes"
            assert model.generate("q2", Verdict)[0].verdict == "yes"
        assert srv.response_formats_seen == ["json_schema", "json_object", "json_object"]
        assert model.structured_format == "json_object"
        assert usage.retries == 0  # moving down a rung is not a retry
        assert '"verdict"' in _prompt(srv.counters.bodies[1])  # the schema travels in the prompt
        assert "JSON" in _prompt(srv.counters.bodies[1])


def test_ladder_reaches_plain_text(fast_policy) -> None:
    def responder(req: dict) -> str:
        return 'Sure! ```json\n{"verdict": "no", "reason": "off topic"}\n```'

    with OpenAIChatServer(responder, supported_formats=[]) as srv:
        model = _client(srv, fast_policy)
        result, _ = model.generate("q", Verdict)
        assert result == Verdict(verdict="no", reason="off topic")
        assert srv.response_formats_seen == ["json_schema", "json_object", None]
        assert model.structured_format == "text"


def test_local_model_format_setting_picks_first_rung(fast_policy, monkeypatch) -> None:
    with OpenAIChatServer(lambda req: GOOD) as srv:
        monkeypatch.setenv("LOCAL_MODEL_NAME", "qwen3:4b")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", srv.base_url)
        monkeypatch.setenv("LOCAL_MODEL_FORMAT", "json")
        model = LocalModel(retry_policy=fast_policy)
        (result, cost) = model.generate("q", Verdict)
        assert result.verdict == "yes" and cost == 0.0
        assert srv.response_formats_seen == ["json_object"]
        assert srv.counters.bodies[0]["model"] == "qwen3:4b"
        assert srv.counters.authorization == ["Bearer not-needed"]
        assert model.get_model_name() == "qwen3:4b"


def test_local_model_needs_name_and_url() -> None:
    with pytest.raises(ConfigurationError, match="LOCAL_MODEL_BASE_URL"):
        LocalModel(model="m")
    with pytest.raises(ConfigurationError, match="LOCAL_MODEL_NAME"):
        LocalModel(base_url="http://127.0.0.1:1/v1")
    with pytest.raises(ValueError, match="format"):
        LocalModel(model="m", base_url="http://127.0.0.1:1/v1", format="yaml")


def test_plain_text_generation(fast_policy) -> None:
    with OpenAIChatServer(lambda req: "just words") as srv:
        text, _ = _client(srv, fast_policy).generate("hello")
        assert text == "just words"
        assert "response_format" not in srv.counters.bodies[0]


# -- re-ask on a reply that misses a field -------------------------------------------------------------------------


def test_missing_field_gets_exactly_one_reask_then_success(fast_policy) -> None:
    replies = iter([{"content": {"verdict": "yes"}}, GOOD])
    with OpenAIChatServer(lambda req: next(replies)) as srv:
        model = _client(srv, fast_policy)
        with track_usage() as usage:
            result = asyncio.run(a_generate_structured(model, "q", Verdict))
        assert result == Verdict(verdict="yes", reason="on topic")
        assert srv.counters.requests == 2
        assert usage.llm_calls == 2
        assert "rejected" in _prompt(srv.counters.bodies[1]) and "reason" in _prompt(srv.counters.bodies[1])


def test_missing_field_twice_raises_structured_output_error(fast_policy) -> None:
    with OpenAIChatServer(
        lambda req: {"content": {"verdict": "yes"}, "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
    ) as srv:
        model = _client(srv, fast_policy, model="gpt-4o-mini")
        with track_usage() as usage, pytest.raises(StructuredOutputError) as info:
            asyncio.run(a_generate_structured(model, "q", Verdict))
        assert srv.counters.requests == 2
        assert info.value.kind == "invalid_output" and "gpt-4o-mini" in str(info.value)
        assert usage.cost == pytest.approx(2 * (10 * 0.15e-6 + 5 * 0.60e-6))  # failed calls still cost


# -- logprobs --------------------------------------------------------------------------------------------------------


def test_logprobs_are_exact(fast_policy) -> None:
    top = {"Yes": math.log(0.6), " yes": math.log(0.1), "No": math.log(0.25), "Maybe": math.log(0.05)}
    with OpenAIChatServer(
        lambda req: {"content": "Yes because", "logprobs": [top, {" because": -0.01}]}
    ) as srv:
        model = _client(srv, fast_policy)
        completion, _ = model.generate_with_logprobs("Answer yes or no", top_logprobs=3, max_tokens=1)
        body = srv.counters.bodies[0]
        assert body["logprobs"] is True and body["top_logprobs"] == 3
        assert body["max_completion_tokens"] == 1 and "response_format" not in body
        assert completion.text == "Yes"
        assert len(completion.tokens) == 1
        tok = completion.tokens[0]
        assert tok.token == "Yes" and tok.probability == pytest.approx(0.6)
        assert list(tok.top_logprobs) == ["Yes", "No", " yes"]
        assert tok.top_logprobs["No"] == pytest.approx(math.log(0.25))


def test_local_model_logprobs_use_max_tokens(fast_policy) -> None:
    with OpenAIChatServer(lambda req: {"content": "No", "logprobs": [{"No": -0.1, "Yes": -2.4}]}) as srv:
        model = LocalModel(model="llama", base_url=srv.base_url, retry_policy=fast_policy)
        completion, cost = asyncio.run(model.a_generate_with_logprobs("q", top_logprobs=2))
        assert srv.counters.bodies[0]["max_tokens"] == 1
        assert completion.tokens[0].top_logprobs == {"No": -0.1, "Yes": -2.4}
        assert cost == 0.0
        with pytest.raises(ValueError, match="top_logprobs"):
            model.generate_with_logprobs("q", top_logprobs=21)


def test_no_logprobs_in_reply_is_an_error(fast_policy) -> None:
    class NoLogprobs(OpenAIChatServer):
        def handle_post(self, path, payload, raw):
            status, body, toks = super().handle_post(path, payload, raw)
            body["choices"][0]["logprobs"] = None
            return status, body, toks

    with NoLogprobs(lambda req: "Yes") as srv:
        with pytest.raises(JudgeError, match="no token log-probabilities") as info:
            _client(srv, fast_policy).generate_with_logprobs("q")
        assert info.value.kind == "invalid_output"


# -- usage and cost --------------------------------------------------------------------------------------------------


def _usage_responder(req: dict) -> dict:
    return {**GOOD, "usage": {"prompt_tokens": 1000, "completion_tokens": 200}}


def test_usage_and_cost_from_price_table(fast_policy) -> None:
    with OpenAIChatServer(_usage_responder) as srv:
        model = _client(srv, fast_policy)
        with track_usage() as usage:
            _, cost = model.generate("q", Verdict)
        assert usage.input_tokens == 1000 and usage.output_tokens == 200
        assert cost == pytest.approx(1000 * 2.50e-6 + 200 * 15.00e-6)  # gpt-5.4: $2.50 / $15 per 1M


@pytest.mark.regression
@pytest.mark.parametrize("where", ["content", "body"])
def test_deeply_nested_json_is_invalid_output_not_recursion_error(fast_policy, where: str) -> None:
    """A reply nesting 100,000 arrays (in the message content, or as the whole HTTP body) is an invalid reply like
    any other: a JudgeError / StructuredOutputError after the re-ask, never a bare RecursionError out of measure()
    (issue 42 item 6)."""
    deep = "[" * 100_000 + "]" * 100_000
    faults = [Fault.non_json(deep)] * 50 if where == "body" else []
    with OpenAIChatServer(lambda req: {"content": deep}, faults=faults) as srv:
        with pytest.raises(JudgeError) as info:
            _client(srv, fast_policy).generate("q", Verdict)
    assert not isinstance(info.value, RecursionError)


@pytest.mark.regression
@pytest.mark.parametrize("tokens", [-3_000_000, 10**305], ids=["negative", "absurd"])
def test_absurd_token_counts_are_unknown_not_a_cost(fast_policy, tokens: int) -> None:
    """A server reporting a negative or astronomical token count: the count is unknown, never a cost of
    -$7.50 or $3e299 (issue 42 item 4)."""
    bad = {**GOOD, "usage": {"prompt_tokens": tokens, "completion_tokens": tokens}}
    with OpenAIChatServer(lambda req: bad) as srv:
        with track_usage() as usage:
            _, cost = _client(srv, fast_policy).generate("q", Verdict)
    assert usage.input_tokens == 0 and usage.output_tokens == 0
    assert cost is None, cost


def test_cost_overrides_from_settings_and_arguments(fast_policy, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_COST_PER_INPUT_TOKEN", "0.001")
    monkeypatch.setenv("OPENAI_COST_PER_OUTPUT_TOKEN", "0.002")
    with OpenAIChatServer(_usage_responder) as srv:
        _, cost = _client(srv, fast_policy).generate("q", Verdict)
        assert cost == pytest.approx(1000 * 0.001 + 200 * 0.002)
        _, cost = _client(srv, fast_policy, cost_per_input_token=0.0, cost_per_output_token=1e-6).generate(
            "q"
        )
        assert cost == pytest.approx(200e-6)


def test_unknown_model_cost_is_none_and_local_is_zero(fast_policy) -> None:
    with OpenAIChatServer(_usage_responder) as srv:
        with track_usage() as usage:
            _, cost = _client(srv, fast_policy, model="my-finetune").generate("q", Verdict)
        assert cost is None
        assert usage.input_tokens == 1000  # tokens are still counted
        local = LocalModel(
            model="m", base_url=srv.base_url, retry_policy=fast_policy, cost_per_input_token=1e-6
        )
        _, cost = local.generate("q")
        assert cost == pytest.approx(1000e-6)


def test_dated_snapshot_uses_base_price(fast_policy) -> None:
    with OpenAIChatServer(_usage_responder) as srv:
        _, cost = _client(srv, fast_policy, model="gpt-4o-2024-08-06").generate("q")
        assert cost == pytest.approx(1000 * 2.5e-6 + 200 * 10e-6)


# -- retries -------------------------------------------------------------------------------------------------------


def test_429_retry_after_is_honoured(fast_policy) -> None:
    with OpenAIChatServer(lambda req: GOOD, faults=[Fault.rate_limited(retry_after=0.3)]) as srv:
        model = _client(srv, fast_policy)
        with track_usage() as usage:
            t0 = time.perf_counter()
            result, _ = model.generate("q", Verdict)
            elapsed = time.perf_counter() - t0
        assert result.verdict == "yes"
        assert srv.counters.requests == 2 and usage.retries == 1
        assert elapsed >= 0.3
        assert model.limiter.max_concurrency == DEFAULT_MAX_CONCURRENCY == 256  # the default start
        assert model.limiter.cap == 128  # halved by the 429


def test_429_retry_after_ms_is_honoured(fast_policy) -> None:
    faults = [Fault.rate_limited(retry_after_ms=150), Fault.rate_limited(retry_after_ms=150)]
    with OpenAIChatServer(lambda req: "ok", faults=faults) as srv:
        with track_usage() as usage:
            t0 = time.perf_counter()
            _client(srv, fast_policy).generate("q")
            elapsed = time.perf_counter() - t0
        assert usage.retries == 2 and srv.counters.requests == 3
        assert elapsed >= 0.3


def test_500s_are_retried(fast_policy) -> None:
    faults = [Fault.server_error(500), Fault.server_error(503), Fault.drop_field("choices")]
    with OpenAIChatServer(lambda req: GOOD, faults=faults) as srv:
        with track_usage() as usage:
            result, _ = _client(srv, fast_policy).generate("q", Verdict)
        assert result.reason == "on topic"
        assert usage.retries == 3 and srv.counters.requests == 4


def test_persistent_500_gives_up_after_max_retries(fast_policy) -> None:
    policy = RetryPolicy(max_retries=2, timeout=2, base_delay=0.001, max_delay=0.002)
    with OpenAIChatServer(failure_rate=1.0, failure=Fault.server_error(502)) as srv:
        with track_usage() as usage, pytest.raises(JudgeError) as info:
            _client(srv, policy).generate("q")
        err = info.value
        assert srv.counters.requests == 3 and usage.retries == 2
        assert err.kind == "server" and err.status_code == 502 and err.retryable
        assert "gpt-5.4" in str(err) and "3 attempts" in str(err)


def test_slow_reply_times_out_after_configured_retries(monkeypatch) -> None:
    monkeypatch.setenv("DEEPEVAL_JUDGE_TIMEOUT", "0.2")
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_RETRIES", "2")
    with OpenAIChatServer(failure_rate=1.0, failure=Fault.slow(3.0)) as srv:
        model = OpenAIModel(api_key=KEY, base_url=srv.base_url)
        assert model.retry_policy.timeout == 0.2 and model.retry_policy.max_retries == 2
        object.__setattr__(model.retry_policy, "base_delay", 0.001)
        with track_usage() as usage, pytest.raises(JudgeError) as info:
            t0 = time.perf_counter()
            model.generate("q")
        elapsed = time.perf_counter() - t0
        assert info.value.kind == "timeout" and info.value.retryable
        assert srv.counters.requests == 3 and usage.retries == 2
        assert 0.6 <= elapsed < 2.5
        assert "0.2 s" in str(info.value) and "gpt-5.4" in str(info.value)


def test_non_json_body_is_a_clear_error(fast_policy) -> None:
    policy = RetryPolicy(max_retries=1, timeout=2, base_delay=0.001, max_delay=0.002)
    with OpenAIChatServer(failure_rate=1.0, failure=Fault.non_json("<html>Bad Gateway</html>")) as srv:
        with pytest.raises(JudgeError) as info:
            _client(srv, policy).generate("q", Verdict)
        assert "not JSON" in str(info.value) and "<html>Bad Gateway" in str(info.value)
        assert info.value.kind == "server" and srv.counters.requests == 2


@pytest.mark.parametrize(
    ("status", "kind"),
    [(400, "bad_request"), (401, "auth"), (403, "auth"), (404, "bad_request"), (422, "bad_request")],
)
def test_client_errors_are_not_retried(fast_policy, status: int, kind: str) -> None:
    with OpenAIChatServer(faults=[Fault.http_status(status)]) as srv:
        with track_usage() as usage, pytest.raises(JudgeError) as info:
            _client(srv, fast_policy).generate("q")
        assert srv.counters.requests == 1 and usage.retries == 0
        assert info.value.status_code == status and info.value.kind == kind and not info.value.retryable


def test_insufficient_quota_429_is_not_retried(fast_policy) -> None:
    body = {
        "error": {
            "message": "You exceeded your current quota",
            "type": "insufficient_quota",
            "code": "insufficient_quota",
        }
    }
    with OpenAIChatServer(faults=[Fault.http_status(429, body)]) as srv:
        with pytest.raises(JudgeError) as info:
            _client(srv, fast_policy).generate("q")
        assert srv.counters.requests == 1 and info.value.kind == "rate_limit" and not info.value.retryable


def test_context_length_exceeded_maps_to_context_limit(fast_policy) -> None:
    with OpenAIChatServer(context_window=3) as srv:
        with pytest.raises(JudgeError) as info:
            _client(srv, fast_policy).generate("one two three four")
        assert info.value.kind == "context_limit" and srv.counters.requests == 1


def test_connection_refused_is_retried_then_connection_error(fast_policy) -> None:
    srv = OpenAIChatServer().start()
    url = srv.base_url
    srv.close()
    policy = RetryPolicy(max_retries=1, timeout=2, base_delay=0.001, max_delay=0.002)
    model = OpenAIModel(api_key=KEY, base_url=url, retry_policy=policy)
    with track_usage() as usage, pytest.raises(JudgeError) as info:
        model.generate("q")
    assert info.value.kind == "connection" and usage.retries == 1
    assert "127.0.0.1" in str(info.value)


def test_rejected_temperature_is_dropped(fast_policy) -> None:
    body = {
        "error": {"message": "Unsupported value: 'temperature' does not support 0", "param": "temperature"}
    }
    with OpenAIChatServer(lambda req: "ok", faults=[Fault.http_status(400, body)]) as srv:
        model = _client(srv, fast_policy)
        assert model.generate("q")[0] == "ok"
        assert model.generate("q")[0] == "ok"
        assert [("temperature" in b) for b in srv.counters.bodies] == [True, False, False]


# -- secrets -------------------------------------------------------------------------------------------------------


def test_key_never_in_errors_or_repr(fast_policy) -> None:
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}", "type": "invalid_request_error"}}
    with OpenAIChatServer(api_key="sk-other", faults=[Fault.http_status(401, echo)]) as srv:
        model = _client(srv, fast_policy)
        for _ in range(2):  # the echoing fault, then the server's own 401
            with pytest.raises(JudgeError) as info:
                model.generate("q")
            assert info.value.kind == "auth"
            assert KEY not in str(info.value) and KEY not in repr(info.value)
            assert "gpt-5.4" in str(info.value)
        assert "***" in str(_first_error(model))
        assert KEY not in repr(model) and KEY not in str(vars(model))


def _first_error(model: OpenAIModel) -> JudgeError:
    srv = OpenAIChatServer(faults=[Fault.http_status(401, {"error": {"message": f"bad key {KEY}"}})]).start()
    try:
        model.base_url = srv.base_url
        model._async_clients.clear()
        try:
            model.generate("q")
        except JudgeError as exc:
            return exc
        raise AssertionError("expected a 401")
    finally:
        srv.close()


def test_missing_openai_key_fails_at_call_time_with_auth_kind() -> None:
    model = OpenAIModel()  # no key anywhere: construction succeeds
    assert model.get_model_name() == "gpt-5.4" and model.model is None
    with pytest.raises(JudgeError) as info:
        model.generate("q")
    assert info.value.kind == "auth" and "OPENAI_API_KEY" in str(info.value)


def test_settings_supply_key_model_and_url(monkeypatch, fast_policy) -> None:
    with OpenAIChatServer(lambda req: "ok", api_key=KEY) as srv:
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("OPENAI_MODEL_NAME", "gpt-4.1")
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        model = GPTModel(retry_policy=fast_policy)
        assert model.generate("q")[0] == "ok"
        assert srv.counters.bodies[0]["model"] == "gpt-4.1"


# -- concurrency ---------------------------------------------------------------------------------------------------


def test_limiter_caps_concurrent_requests(fast_policy) -> None:
    with OpenAIChatServer(lambda req: "ok", latency=0.1) as srv:
        model = _client(srv, fast_policy, max_concurrency=2)

        async def many() -> list[str]:
            replies = await asyncio.gather(*(model.a_generate(f"q{i}") for i in range(6)))
            await model.aclose()
            return [text for text, _ in replies]

        assert asyncio.run(many()) == ["ok"] * 6
        assert srv.counters.max_in_flight == 2


def test_default_cap_sends_a_wide_level_in_one_wave_and_halves_on_429(fast_policy) -> None:
    """A level of 100 independent calls goes out at once with the default cap; one 429 halves the cap and the
    retried call still succeeds."""
    with OpenAIChatServer(
        lambda req: "ok", latency=0.5, faults=[Fault.rate_limited(retry_after=0.05)]
    ) as srv:
        model = LocalModel(model="m", base_url=srv.base_url, retry_policy=fast_policy)

        async def many() -> list[str]:
            replies = await asyncio.gather(*(model.a_generate(f"q{i}") for i in range(100)))
            await model.aclose()
            return [text for text, _ in replies]

        assert asyncio.run(many()) == ["ok"] * 100
        assert srv.counters.requests == 101 and srv.counters.max_in_flight >= 90
        assert model.limiter.cap == DEFAULT_MAX_CONCURRENCY // 2


@pytest.mark.asyncio
async def test_sync_generate_inside_running_loop(fast_policy) -> None:
    with OpenAIChatServer(lambda req: json.dumps({"verdict": "yes", "reason": "r"})) as srv:
        model = _client(srv, fast_policy)
        result, _ = model.generate("q", Verdict)  # blocking call from inside a loop must not fail
        assert result.verdict == "yes"
        text, _ = await model.a_generate("again")
        assert text.startswith("{")
        await model.aclose()


def test_callers_async_http_client_serves_async_calls_and_sync_client_gets_default(fast_policy) -> None:
    """An ``httpx.AsyncClient`` passed as ``http_client=`` is used by our async calls; the sync client that
    ``load_model`` builds (which cannot take an async client) falls back to the default instead of failing."""
    import httpx

    seen: list[str] = []

    async def hook(request: httpx.Request) -> None:
        seen.append(request.url.path)

    with OpenAIChatServer(lambda req: "ok", api_key=KEY) as srv:

        async def go() -> str:
            http_client = httpx.AsyncClient(event_hooks={"request": [hook]})
            model = _client(srv, fast_policy, http_client=http_client)  # raised TypeError before
            assert isinstance(model.model, openai.OpenAI)
            text, _ = await model.a_generate("q")
            await http_client.aclose()
            return text

        assert asyncio.run(go()) == "ok"
        assert seen == ["/v1/chat/completions"]


def test_callers_sync_http_client_serves_load_model_and_async_calls_still_work(fast_policy) -> None:
    import httpx

    seen: list[str] = []
    with OpenAIChatServer(lambda req: "ok", api_key=KEY) as srv:
        http_client = httpx.Client(event_hooks={"request": [lambda r: seen.append(r.url.path)]})
        model = _client(srv, fast_policy, http_client=http_client)
        model.model.chat.completions.create(model="gpt-5.4", messages=[{"role": "user", "content": "q"}])
        assert seen == ["/v1/chat/completions"]  # the sync SDK client is the caller's
        assert model.generate("q")[0] == "ok"  # our calls use an async default client
        assert seen == ["/v1/chat/completions"]
        http_client.close()


def test_callers_async_http_client_survives_sync_calls(fast_policy) -> None:
    """Each sync call runs on a private SDK client that is closed afterwards; a caller's http_client under it must
    stay open (it was closed after the first call, and the second raised)."""
    import httpx

    with OpenAIChatServer(lambda req: "ok", api_key=KEY) as srv:
        http_client = httpx.AsyncClient()
        model = _client(srv, fast_policy, http_client=http_client)
        assert [model.generate("q")[0] for _ in range(3)] == ["ok", "ok", "ok"]
        assert http_client.is_closed is False


def test_a_default_token_cap_is_sent_unless_the_call_sets_one() -> None:
    from deepeval.models import LocalModel

    with OpenAIChatServer(lambda req: "one two three four five six") as srv:
        model = LocalModel(model="m", base_url=srv.base_url)
        model.generate("hi")
        assert "max_tokens" not in srv.counters.bodies[-1]  # no cap unless one is set
        model.max_tokens = 4
        text, _ = model.generate("hi")
        assert srv.counters.bodies[-1]["max_tokens"] == 4 and text == "one two three four"
        model.generate_with_logprobs("hi", top_logprobs=2)
        assert srv.counters.bodies[-1]["max_tokens"] == 1  # the call's own cap wins
        model.generation_kwargs = {"max_tokens": 2}
        model.generate("hi")
        assert srv.counters.bodies[-1]["max_tokens"] == 2  # and generation_kwargs win over the default


BAD_URLS = [
    ("http://127.0.0.1:99999/v1", "port '99999' is not a number in 1-65535"),
    ("http://127.0.0.1:abc/v1", "port 'abc' is not a number in 1-65535"),
    ("http://127.0.0.1:0/v1", "port 0 is not a number in 1-65535"),
    ("http://[::1/v1", "cannot be parsed"),
    ("localhost:8000/v1", "the scheme must be http or https, not 'localhost'"),
    ("http:///v1", "it has no host"),
]


@pytest.mark.parametrize(("url", "problem"), BAD_URLS)
def test_unusable_base_url_is_refused_at_construction_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, url: str, problem: str
) -> None:
    from deepeval.models.system_one.typesafe import TypeSafeModel

    builders = [
        ("base_url", lambda: LocalModel(model="m", base_url=url)),
        ("base_url", lambda: OpenAIModel(api_key=KEY, base_url=url)),
        ("LOCAL_MODEL_BASE_URL", lambda: LocalModel(model="m")),
        ("OPENAI_BASE_URL", lambda: OpenAIModel(api_key=KEY)),
        ("TYPESAFE_BASE_URL", lambda: TypeSafeModel(api_key=KEY)),
    ]
    for name in ("LOCAL_MODEL_BASE_URL", "OPENAI_BASE_URL", "TYPESAFE_BASE_URL"):
        monkeypatch.setenv(name, url)
    for setting, build in builders:
        with pytest.raises(ConfigurationError) as info:
            build()
        assert str(info.value).startswith(f"{setting} ") and problem in str(info.value)


def test_base_url_error_and_repr_never_show_credentials() -> None:
    url = f"http://user:{KEY}@127.0.0.1:99999/v1?api_key={KEY}"
    with pytest.raises(ConfigurationError) as info:
        LocalModel(model="m", base_url=url)
    assert KEY not in str(info.value) and "user" not in str(info.value)
    assert "'http://127.0.0.1:99999/v1'" in str(info.value)
    judge = LocalModel(model="m", base_url="http://127.0.0.1:9/v1")
    for bad in (url, "http://[::1/v1", "http://127.0.0.1:abc/v1"):
        judge.base_url = bad  # changed after construction: repr still works and still hides the key
        assert repr(judge).startswith("LocalModel(model='m', base_url=") and KEY not in repr(judge)


def test_evaluate_with_an_unusable_local_model_url_errors_rows_clearly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deepeval import evaluate
    from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.test_case import LLMTestCase

    monkeypatch.setenv("USE_LOCAL_MODEL", "1")
    monkeypatch.setenv("LOCAL_MODEL_NAME", "m")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", f"http://user:{KEY}@127.0.0.1:99999/v1")
    result = evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [AnswerRelevancyMetric()],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    (row,) = result.metric_rows()
    assert row.error is not None and row.error.startswith("ConfigurationError: LOCAL_MODEL_BASE_URL ")
    assert "port '99999'" in row.error and KEY not in row.error
