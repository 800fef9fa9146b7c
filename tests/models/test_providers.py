"""The provider judges against loopback servers speaking each provider's real wire format
(``deepeval.testing.provider_servers`` and ``OpenAIChatServer``): a structured call, a logprob call where the
provider offers one, a 429 with Retry-After, a 401, a 500 then success, a malformed body, a slow reply past the
deadline; usage and cost recorded; the key never in messages, reprs or logs."""

from __future__ import annotations

import importlib.util
import json
import logging
import time
from typing import Any

import pytest

from _support.providers import (
    IDS,
    KEY,
    POLICY,
    PROVIDERS,
    Provider,
    Verdict,
    responder,
    running,
)
from deepeval.errors import ErrorKind, JudgeError
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one.logprob import LogprobSystemOneModel
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.models.usage import track_usage
from deepeval.testing._http import Fault
from deepeval.testing.provider_servers import AnthropicServer, AzureOpenAIServer, GeminiServer, OllamaServer


def _leaks(provider: Provider, *texts: str) -> list[str]:
    return [s for s in provider.secrets for t in texts if s in t]


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_structured_call_records_usage_and_cost(provider: Provider) -> None:
    with running(provider) as (server, judge), track_usage() as usage:
        result, cost = judge.generate("Is the answer on topic? Reply in JSON.", schema=Verdict)
    assert result == Verdict(verdict="yes", reason="on topic")
    assert server.counters.requests == 1
    assert (usage.input_tokens, usage.output_tokens) == (
        server.counters.input_tokens,
        server.counters.output_tokens,
    )
    assert usage.input_tokens > 0 and usage.output_tokens > 0
    assert usage.llm_calls == 1
    if provider.price is None:
        assert cost is None
    else:
        expected = usage.input_tokens * provider.price[0] + usage.output_tokens * provider.price[1]
        assert cost == pytest.approx(expected)


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_logprob_call_where_offered(provider: Provider) -> None:
    with running(provider) as (_server, judge):
        if not provider.logprobs:  # the API returns none: the methods are absent, so nothing can rely on them
            assert not hasattr(judge, "a_generate_with_logprobs")
            with pytest.raises(TypeError, match="log-probabilities"):
                LogprobSystemOneModel(judge)
            return
        completion, _cost = judge.generate_with_logprobs("Relevant? yes or no", top_logprobs=3, max_tokens=1)
    assert completion.text == "yes"
    (token,) = completion.tokens
    assert token.token == "yes" and token.logprob == pytest.approx(-0.105)
    assert token.top_logprobs == pytest.approx({"yes": -0.105, "no": -2.303, "maybe": -4.0})


_CAP_KEYS = ("max_tokens", "max_completion_tokens", "num_predict", "maxOutputTokens")


def _caps(body: Any) -> dict[str, Any]:
    """The token caps anywhere in a request body (OpenAI / Ollama options / Gemini generationConfig)."""
    found: dict[str, Any] = {}
    for part in (body, body.get("options") or {}, body.get("generationConfig") or {}):
        found |= {k: part[k] for k in _CAP_KEYS if k in part}
    return found


def _provider(p: Any) -> Provider:
    return p if isinstance(p, Provider) else p.values[0]


_LOGPROB = [p for p in PROVIDERS if _provider(p).logprobs]


@pytest.mark.parametrize("provider", _LOGPROB, ids=[_provider(p).id for p in _LOGPROB])
def test_logprob_call_without_a_token_cap_sends_none(provider: Provider) -> None:
    """GEval's score call asks for log-probabilities of a whole JSON reply (max_tokens=None): every client that
    offers log-probabilities takes None as "no cap of ours" (Ollama and Gemini once raised TypeError on it)."""
    with running(provider) as (server, judge):
        completion, _cost = judge.generate_with_logprobs(
            "Relevant? yes or no", top_logprobs=3, max_tokens=None
        )
        one, _cost = judge.generate_with_logprobs("Relevant? yes or no", top_logprobs=3, max_tokens=1)
    assert completion.text == one.text == "yes"
    first, second = server.counters.bodies[-2:]
    assert set(_caps(first).values()) <= {None} and 1 in _caps(second).values()


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_429_with_retry_after_is_waited_for_then_retried(provider: Provider) -> None:
    with running(provider) as (server, judge), track_usage() as usage:
        server.script(Fault.rate_limited(retry_after=0.2))
        started = time.monotonic()
        text, _ = judge.generate("Say something.")
        waited = time.monotonic() - started
    assert text == "plain reply"
    assert server.counters.requests == 2 and usage.retries == 1
    assert waited >= 0.2  # the server's Retry-After, not the 1-2 ms backoff of the policy


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_401_is_an_auth_error_not_retried(provider: Provider) -> None:
    with running(provider) as (server, judge):
        server.script(Fault.http_status(401))
        with pytest.raises(JudgeError) as info:
            judge.generate("Say something.")
    assert info.value.kind is ErrorKind.auth and not info.value.retryable
    assert server.counters.requests == 1
    assert not _leaks(provider, str(info.value), repr(judge))


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_500_then_success(provider: Provider) -> None:
    with running(provider) as (server, judge), track_usage() as usage:
        server.script(Fault.server_error(500))
        result, _ = judge.generate("Is it on topic? Reply in JSON.", schema=Verdict)
    assert result.verdict == "yes"
    assert server.counters.requests == 2 and usage.retries == 1


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_malformed_body_is_a_retryable_server_error(provider: Provider) -> None:
    once = RetryPolicy(max_retries=0, timeout=5.0)
    with running(provider, once) as (server, judge):
        server.script(Fault.non_json("<html>gateway fell over</html>"))
        with pytest.raises(JudgeError) as info:
            judge.generate("Say something.")
        server.script(
            Fault.drop_field(
                {
                    "ollama": "message",
                    "anthropic": "content",
                    "gemini": "candidates",
                    "bedrock": "output",
                }.get(provider.id, "choices")
            )
        )
        with pytest.raises(JudgeError) as missing:
            judge.generate("Say something.")
    assert info.value.kind is ErrorKind.server and info.value.retryable
    assert missing.value.kind in (ErrorKind.server, ErrorKind.invalid_output)


@pytest.mark.parametrize("provider", PROVIDERS, ids=IDS)
def test_slow_reply_past_the_deadline_is_a_timeout(provider: Provider) -> None:
    quick = RetryPolicy(max_retries=0, timeout=0.3)
    with running(provider, quick) as (server, judge):
        server.script(Fault.slow(3.0))
        started = time.monotonic()
        with pytest.raises(JudgeError) as info:
            judge.generate("Say something.")
    assert info.value.kind is ErrorKind.timeout
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize(
    "provider", [p for p in PROVIDERS if getattr(p, "id", "") not in ("ollama",)], ids=str
)
def test_key_never_leaks_even_when_the_server_quotes_it(
    provider: Any, caplog: pytest.LogCaptureFixture
) -> None:
    provider = provider if isinstance(provider, Provider) else provider.values[0]
    if provider.id == "bedrock":
        pytest.skip("SigV4 sends no secret for a server to quote")
    caplog.set_level(logging.DEBUG)

    def quote(credential: str) -> tuple[Any, dict[str, str]]:
        return {"error": {"message": f"bad key {credential} (starts {credential[:12]})", "type": "x"}}, {
            "x-echo": credential
        }

    with running(provider) as (server, judge):
        server.script(Fault.echo_credential(400, quote))
        with pytest.raises(JudgeError) as info:
            judge.generate("Say something.")
        sent = server.counters.headers[-1]
    assert KEY in str(sent.values())  # it was sent (in the provider's own header)...
    assert not _leaks(provider, str(info.value), repr(judge), caplog.text)  # ...and never shown


def test_anthropic_falls_back_to_tool_use_when_structured_outputs_are_refused() -> None:
    from deepeval.models import AnthropicModel

    with AnthropicServer(responder, api_key=KEY, structured_outputs=False) as server:
        judge = AnthropicModel(
            "claude-sonnet-4-5", api_key=KEY, base_url=server.base_url, retry_policy=POLICY
        )
        with track_usage() as usage:
            first, _ = judge.generate("Reply in JSON.", schema=Verdict)
            second, _ = judge.generate("Reply in JSON.", schema=Verdict)
    assert first == second == Verdict(verdict="yes", reason="on topic")
    bodies = server.counters.bodies
    assert "output_config" in bodies[0] and "tools" in bodies[1] and "tools" in bodies[2]
    assert bodies[1]["tool_choice"] == {"type": "tool", "name": "Verdict"}
    assert judge.structured_format == "tool"
    assert usage.llm_calls == 3  # the refused request counts: the server saw it
    assert all(
        h.get("anthropic-version") == "2023-06-01" and h.get("x-api-key") == KEY
        for h in server.counters.headers
    )


def test_claude_3_starts_on_tool_use_and_caps_tokens_at_4096() -> None:
    from deepeval.models import AnthropicModel

    with AnthropicServer(responder, api_key=KEY) as server:
        judge = AnthropicModel("claude-3-haiku-20240307", api_key=KEY, base_url=server.base_url)
        judge.generate("Reply in JSON.", schema=Verdict)
    (body,) = server.counters.bodies
    assert "tools" in body and "output_config" not in body
    assert body["max_tokens"] == 4096


def test_gemini_request_shape() -> None:
    from deepeval.models import GeminiModel

    with GeminiServer(responder, api_key=KEY) as server:
        GeminiModel("gemini-2.5-flash", api_key=KEY, base_url=server.base_url).generate(
            "JSON", schema=Verdict
        )
    (body,) = server.counters.bodies
    assert server.counters.targets == ["/v1beta/models/gemini-2.5-flash:generateContent"]
    config = body["generationConfig"]
    assert (
        config["responseMimeType"] == "application/json"
        and config["responseJsonSchema"]["title"] == "Verdict"
    )
    assert config["temperature"] == 0.0
    assert {s["threshold"] for s in body["safetySettings"]} == {"BLOCK_NONE"}


def test_ollama_native_format_and_options() -> None:
    from deepeval.models import OllamaModel

    with OllamaServer(responder) as server:
        judge = OllamaModel("qwen3:8b", base_url=server.root + "/v1", generation_kwargs={"num_ctx": 8192})
        judge.generate("JSON", schema=Verdict)
    (body,) = server.counters.bodies
    assert server.counters.targets == ["/api/chat"]  # a /v1 base URL still reaches the native API
    assert body["format"]["title"] == "Verdict" and body["stream"] is False
    assert body["options"] == {"temperature": 0.0, "num_ctx": 8192}
    assert judge.get_model_name() == "qwen3:8b (Ollama)"


def test_ollama_v1_is_served_for_local_model() -> None:
    from deepeval.models import LocalModel

    with OllamaServer(responder) as server:
        result, _ = LocalModel("llama3.1", base_url=server.base_url).generate("JSON", schema=Verdict)
    assert result.verdict == "yes" and server.counters.targets == ["/v1/chat/completions"]


def test_azure_deployment_url_api_version_and_key_header() -> None:
    with running(next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == "azure")) as (
        server,
        judge,
    ):
        judge.generate("Say something.")
        headers = server.counters.headers[0]
    assert server.counters.targets == ["/openai/deployments/judge/chat/completions?api-version=2024-10-21"]
    assert headers["api-key"] == KEY and "authorization" not in headers
    assert judge.get_model_name() == "gpt-4.1 (Azure)"


def test_portkey_headers() -> None:
    with running(next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == "portkey")) as (
        server,
        judge,
    ):
        judge.generate("Say something.")
    headers = server.counters.headers[0]
    assert headers["x-portkey-api-key"] == KEY and headers["x-portkey-provider"] == "openai"


def test_missing_key_is_an_auth_error_naming_the_setting() -> None:
    from deepeval.models import AnthropicModel, DeepSeekModel, GeminiModel

    for judge, setting in (
        (AnthropicModel(base_url="http://127.0.0.1:9"), "ANTHROPIC_API_KEY"),
        (GeminiModel(base_url="http://127.0.0.1:9"), "GOOGLE_API_KEY"),
        (DeepSeekModel("deepseek-chat", base_url="http://127.0.0.1:9/v1"), "DEEPSEEK_API_KEY"),
    ):
        with pytest.raises(JudgeError) as info:
            judge.generate("x")
        assert info.value.kind is ErrorKind.auth and setting in str(info.value)


def test_azure_entra_id_token_instead_of_a_key() -> None:
    from deepeval.models import AzureOpenAIModel

    token = "eyJ0eXAiOiJKV1QiLCJhbGciOi-entra-token-123"
    with AzureOpenAIServer(responder) as server:
        judge = AzureOpenAIModel(
            "gpt-4.1",
            azure_ad_token=token,
            base_url=server.endpoint,
            deployment_name="judge",
            api_version="2024-10-21",
            retry_policy=POLICY,
        )
        text, _ = judge.generate("Say something.")
        headers = server.counters.headers[0]
    assert text == "plain reply"
    assert headers["authorization"] == f"Bearer {token}" and "api-key" not in headers
    assert token not in repr(judge)


@pytest.mark.parametrize("provider_id", ["ollama", "gemini"])
def test_logprobs_back_a_system_one_model(provider_id: str) -> None:
    provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == provider_id)
    with running(provider) as (_server, judge):
        s1 = LogprobSystemOneModel(judge, top_logprobs=5)
        answers, _ = s1.decide("The answer: Paris.", {"q1": NoulQuestion(instructions="Is it about France?")})
    p_yes = answers.nouls["q1"].probability
    # P(yes) = e^-0.105 / (e^-0.105 + e^-2.303), renormalised over the labels found
    assert p_yes == pytest.approx(0.9001, abs=1e-3)


def test_a_model_that_refuses_temperature_is_asked_again_without_it() -> None:
    from deepeval.models import AnthropicModel

    with AnthropicServer(responder, api_key=KEY) as server:
        judge = AnthropicModel("claude-sonnet-4-5", api_key=KEY, base_url=server.base_url, temperature=0.0)
        server.script(
            Fault.http_status(
                400,
                {
                    "type": "error",
                    "error": {
                        "type": "invalid_request_error",
                        "message": "temperature: not supported for this model",
                    },
                },
            )
        )
        with track_usage() as usage:
            text, _ = judge.generate("Say something.")
            judge.generate("Say something.")
    assert text == "plain reply"
    assert [b.get("temperature") for b in server.counters.bodies] == [0.0, None, None]
    assert usage.llm_calls == 3


def test_default_models_keep_their_default_temperature_as_in_4_3_1() -> None:
    from deepeval.models import AnthropicModel, GeminiModel

    with AnthropicServer(responder, api_key=KEY) as a, GeminiServer(responder, api_key=KEY) as g:
        AnthropicModel(api_key=KEY, base_url=a.base_url, temperature=0.0).generate("x")  # claude-opus-5
        GeminiModel(api_key=KEY, base_url=g.base_url).generate("x")  # gemini-3.6-flash
        GeminiModel("gemini-2.5-flash", api_key=KEY, base_url=g.base_url).generate("x")
    assert "temperature" not in a.counters.bodies[0]
    assert "temperature" not in g.counters.bodies[0]["generationConfig"]
    assert g.counters.bodies[1]["generationConfig"]["temperature"] == 0.0


# -- Gemini on Vertex AI -----------------------------------------------------------------------------------------------
def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is missing (google.auth without google)
        return False


HAS_GOOGLE_AUTH = _installed("google.auth") and _installed("cryptography")


def _vertex(server: Any, credentials: dict[str, Any]) -> Any:
    from deepeval.models import GeminiModel

    return GeminiModel(
        "gemini-2.5-flash",
        project="proj-1",
        location="us-central1",
        service_account_key=json.dumps(credentials),
        base_url=server.base_url,
        retry_policy=POLICY,
    )


def test_vertex_with_application_default_credentials_of_a_user() -> None:
    with GeminiServer(responder) as server:
        user = {
            "type": "authorized_user",
            "client_id": "cid.apps",
            "client_secret": "csecret-0123456789",
            "refresh_token": "1//refresh-0123456789abcdef",
            "token_uri": server.token_uri,
        }
        judge = _vertex(server, user)
        result, cost = judge.generate("Reply in JSON.", schema=Verdict)
        judge.generate("Say something.")
        with pytest.raises(JudgeError) as refused:
            _vertex(server, {**user, "refresh_token": "revoked"}).generate("x")
    assert result.verdict == "yes" and cost is not None
    assert (
        server.counters.targets[1:3]
        == [
            "/v1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent"
        ]
        * 2
    )
    assert len(server.issued_tokens) == 1  # cached: one exchange for both calls
    assert server.token_requests[0]["grant_type"] == "refresh_token"
    assert server.counters.headers[1]["authorization"] == f"Bearer {server.issued_tokens[0]}"
    assert "x-goog-api-key" not in server.counters.headers[1]
    assert refused.value.kind is ErrorKind.auth and "refused the credentials" in str(refused.value)
    for secret in ("csecret-0123456789", "1//refresh-0123456789abcdef", server.issued_tokens[0]):
        assert secret not in str(refused.value) and secret not in repr(judge)


@pytest.mark.skipif(not HAS_GOOGLE_AUTH, reason="vertex extra (google-auth) not installed")
def test_vertex_with_a_service_account_key_signs_a_jwt() -> None:
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    with GeminiServer(responder) as server:
        account = {
            "type": "service_account",
            "client_email": "judge@proj-1.iam.gserviceaccount.com",
            "private_key": pem,
            "private_key_id": "kid1",
            "token_uri": server.token_uri,
        }
        text, _ = _vertex(server, account).generate("Say something.")
        token_uri = server.token_uri
    assert text == "plain reply"
    form = server.token_requests[0]
    assert form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    header, payload, signature = form["assertion"].split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert claims["iss"] == account["client_email"] and claims["aud"] == token_uri
    assert claims["scope"] == "https://www.googleapis.com/auth/cloud-platform"
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    key.public_key().verify(  # the JWT is really signed with the account's key (raises if not)
        base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)),
        f"{header}.{payload}".encode(),
        padding.PKCS1v15(),
        hashes.SHA256(),
    )


def test_vertex_needs_project_location_and_credentials(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from deepeval.errors import ConfigurationError
    from deepeval.models import GeminiModel

    monkeypatch.setenv("HOME", str(tmp_path))  # no gcloud credentials file
    with pytest.raises(ConfigurationError, match="project and a location"):
        GeminiModel(use_vertexai=True)
    with pytest.raises(ConfigurationError, match="gcloud auth application-default login"):
        GeminiModel(project="p", location="us-central1")  # 4.3.1: project + location and no key = Vertex AI
    assert GeminiModel(api_key="k", project="p", location="l").use_vertexai is False  # a key: the Gemini API


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
@pytest.mark.parametrize("provider_id", ["anthropic", "gemini", "ollama"])
def test_both_http_transports(provider_id: str, transport: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``DEEPEVAL_HTTP_CLIENT`` picks the transport of the wire judges as it does the OpenAI SDK's: the same
    replies, retries and error kinds on either."""
    import asyncio

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == provider_id)
    quick = RetryPolicy(max_retries=1, timeout=0.5, base_delay=0.001, max_delay=0.002)
    with running(provider, quick) as (server, judge):

        async def scenario() -> tuple[str, list[Any]]:
            client = judge.endpoint._clients.get()
            server.script(Fault.rate_limited(0.05))
            text, _ = await judge.a_generate("Say something.")
            kinds = []
            for fault in (Fault.disconnect(), Fault.slow(2.0), Fault.non_json()):
                server.script(fault, fault)
                with pytest.raises(JudgeError) as info:
                    await judge.a_generate("Say something.")
                kinds.append(info.value.kind)
            await judge.aclose()
            return type(client).__name__, [text, *kinds]

        name, seen = asyncio.run(scenario())
    assert ("Aio" in name) == (transport == "aiohttp")
    assert seen == ["plain reply", ErrorKind.connection, ErrorKind.timeout, ErrorKind.server]


def test_deepseek_and_kimi_ask_for_json_mode_with_the_schema_in_the_prompt() -> None:
    for provider_id in ("deepseek", "kimi", "grok"):
        provider = next(p for p in PROVIDERS if isinstance(p, Provider) and p.id == provider_id)
        with running(provider) as (server, judge):
            result, _ = judge.generate("Is it on topic?", schema=Verdict)
        (body,) = server.counters.bodies
        assert result.verdict == "yes"
        expected = "json_schema" if provider_id == "grok" else "json_object"
        assert body["response_format"]["type"] == expected, provider_id
        assert ('"verdict"' in body["messages"][0]["content"]) == (expected == "json_object")


def test_a_hosted_ollamas_bearer_token_in_headers_is_redacted() -> None:
    from deepeval.models import OllamaModel

    token = "ollama-cloud-token-0123456789abcdef"
    with OllamaServer(responder) as server:
        judge = OllamaModel(
            "gpt-oss:120b",
            base_url=server.root,
            headers={"Authorization": f"Bearer {token}"},
            retry_policy=POLICY,
        )
        server.script(Fault.echo_credential(400, lambda c: ({"error": f"token {c} is not allowed"}, {})))
        with pytest.raises(JudgeError) as info:
            judge.generate("x")
    assert server.counters.headers[0]["authorization"] == f"Bearer {token}"
    assert token not in str(info.value) and "***" in str(info.value)


#: the providers whose HTTP client is ours (LiteLLM and boto3 bring their own)
_OUR_HTTP = [p for p in PROVIDERS if _provider(p).id not in ("litellm", "bedrock")]
_LIMIT = 64 * 1024


@pytest.mark.parametrize("provider", _OUR_HTTP, ids=[_provider(p).id for p in _OUR_HTTP])
@pytest.mark.parametrize(
    "fault",
    [Fault.oversize(1 << 20), Fault.oversize(1 << 20, chunked=True), Fault.oversize(1 << 20, status=500)],
    ids=["length", "chunked", "error-status"],
)
@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_a_reply_body_over_the_size_limit_is_a_judge_error_naming_it(
    provider: Provider, fault: Fault, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge that replied with a 200 MB body was read whole (911 MB peak; outside attack 7). Our clients stop
    at DEEPEVAL_JUDGE_MAX_REPLY_BYTES (here 64 KiB against a 1 MiB body, announced by Content-Length or only
    found by reading, on a 200 or an error status): a `server` JudgeError naming the limit, not retried, no key in
    it; the next reply under the limit is read as usual."""
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_REPLY_BYTES", str(_LIMIT))
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    with running(provider) as (server, judge):
        server.script(fault)
        with pytest.raises(JudgeError) as info:
            judge.generate("Is it on topic? Reply in JSON.", schema=Verdict)
        requests = server.counters.requests
        result, _ = judge.generate("Is it on topic? Reply in JSON.", schema=Verdict)
    message = str(info.value)
    assert info.value.kind is ErrorKind.server and not info.value.retryable
    assert f"over the limit of {_LIMIT:,} bytes (DEEPEVAL_JUDGE_MAX_REPLY_BYTES)" in message
    assert ("1,048,576 bytes" in message) is (not fault.chunked)  # the announced size, when announced
    assert requests == 1 and result.verdict == "yes"
    assert not _leaks(provider, message, repr(info.value))


@pytest.mark.parametrize("provider", _OUR_HTTP, ids=[_provider(p).id for p in _OUR_HTTP])
@pytest.mark.parametrize(
    "fault",
    [
        Fault.oversize(1 << 20, coding="gzip"),
        Fault.oversize(1 << 20, coding="gzip", chunked=True),
        Fault.oversize(1 << 20, coding="deflate"),
    ],
    ids=["gzip", "gzip-chunked", "deflate"],
)
@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_a_compressed_reply_that_decodes_past_the_size_limit_is_a_judge_error_naming_it(
    provider: Provider, fault: Fault, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Outside attack 8, LOW 1: the limit counted wire bytes only, so a 400 MiB body gzipped to 0.4 MB was read and
    decoded whole (1.73 GB peak). Here 1 MiB decodes from about 1 KB on the wire, under the 64 KiB limit: the
    decoded bytes are counted too, and the reply fails as one over the limit, naming it and its coding; the next
    reply, compressed the same way and under the limit, decodes as usual."""
    assert fault.coding is not None
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_REPLY_BYTES", str(_LIMIT))
    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    with running(provider) as (server, judge):
        server.script(fault, Fault.compressed(fault.coding))
        with pytest.raises(JudgeError) as info:
            judge.generate("Is it on topic? Reply in JSON.", schema=Verdict)
        requests = server.counters.requests
        result, _ = judge.generate("Is it on topic? Reply in JSON.", schema=Verdict)
        assert server.pending_faults == 0  # the second reply was the compressed one
    message = str(info.value)
    assert info.value.kind is ErrorKind.server and not info.value.retryable
    assert (
        f"the reply body decodes ({fault.coding}) to more bytes, over the limit of {_LIMIT:,} bytes "
        "(DEEPEVAL_JUDGE_MAX_REPLY_BYTES)" in message
    )
    assert requests == 1 and result.verdict == "yes"
    assert not _leaks(provider, message, repr(info.value))


def test_a_reply_size_limit_that_is_not_a_positive_integer_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from deepeval.errors import ConfigurationError
    from deepeval.models.http.reply_limit import max_reply_bytes

    assert max_reply_bytes() == 32 * 1024 * 1024
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_REPLY_BYTES", "0")
    with pytest.raises(ConfigurationError, match="DEEPEVAL_JUDGE_MAX_REPLY_BYTES must be a positive integer"):
        max_reply_bytes()
