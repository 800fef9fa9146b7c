"""The provider judges of ``deepeval.models`` as test parameters: each with its loopback wire server
(``deepeval.testing.provider_servers`` / ``OpenAIChatServer``), a factory of a judge on it, and what it offers
(log-probabilities, its price). Shared by ``tests/models/test_providers*.py``."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from deepeval.models.http.retry import RetryPolicy
from deepeval.testing._http import LoopbackServer
from deepeval.testing.provider_servers import (
    AnthropicServer,
    AzureOpenAIServer,
    BedrockServer,
    GeminiServer,
    OllamaServer,
)
from deepeval.testing.servers import OpenAIChatServer

KEY = "sk-provider-SECRET-0123456789abcdef"
AWS_KEY_ID = "AKIALOOPBACK0123456"
AWS_SECRET = "aws/SECRET+loopback/0123456789abcdefghij"
HAS_LITELLM = importlib.util.find_spec("litellm") is not None
HAS_BOTO3 = importlib.util.find_spec("boto3") is not None


class Verdict(BaseModel):
    verdict: str
    reason: str


REPLY = '{"verdict": "yes", "reason": "on topic"}'


def responder(request: dict[str, Any]) -> Any:
    """Structured requests get the verdict JSON, plain ones a fixed text; a logprob request gets a distribution."""
    raw = request.get("provider_request", request)
    wants_logprobs = bool(raw.get("logprobs") or (raw.get("generationConfig") or {}).get("responseLogprobs"))
    if wants_logprobs:
        return {"content": "yes", "logprobs": [{"yes": -0.105, "no": -2.303, "maybe": -4.0}]}
    if request.get("response_format") or "JSON" in str(request["messages"][-1]["content"]):
        return REPLY
    return "plain reply"


@dataclass(frozen=True)
class Provider:
    """How to run one provider: its server and a judge on it."""

    id: str
    server: Callable[..., LoopbackServer]
    make: Callable[[LoopbackServer, str, RetryPolicy], Any]
    logprobs: bool
    #: USD per (input, output) token the judge prices with (None: no price, cost None)
    price: tuple[float, float] | None
    secrets: tuple[str, ...] = (KEY,)


def _ollama(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import OllamaModel

    return OllamaModel("llama3.1", base_url=s.root, retry_policy=p)


def _anthropic(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import AnthropicModel

    return AnthropicModel("claude-sonnet-4-5", api_key=key, base_url=s.base_url, retry_policy=p)


def _gemini(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import GeminiModel

    return GeminiModel("gemini-2.5-flash", api_key=key, base_url=s.base_url, retry_policy=p)


def _azure(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import AzureOpenAIModel

    return AzureOpenAIModel(
        "gpt-4.1",
        api_key=key,
        base_url=s.endpoint,
        deployment_name="judge",
        api_version="2024-10-21",
        retry_policy=p,
    )


def _hosted(cls_name: str, model: str) -> Callable[[Any, str, RetryPolicy], Any]:
    def make(s: Any, key: str, p: RetryPolicy) -> Any:
        import deepeval.models

        cls = getattr(deepeval.models, cls_name)
        if cls_name == "PortkeyModel":
            return cls(model, api_key=key, base_url=s.base_url, provider="openai", retry_policy=p)
        return cls(model, api_key=key, base_url=s.base_url, retry_policy=p)

    return make


def _litellm(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import LiteLLMModel

    return LiteLLMModel("openai/gpt-4.1", api_key=key, base_url=s.base_url, retry_policy=p)


def _bedrock(s: Any, key: str, p: RetryPolicy) -> Any:
    from deepeval.models import AmazonBedrockModel

    return AmazonBedrockModel(
        "anthropic.claude-sonnet-4-5-20250929-v1:0",
        aws_access_key_id=AWS_KEY_ID,
        aws_secret_access_key=AWS_SECRET,
        region="us-east-1",
        endpoint_url=s.endpoint_url,
        cost_per_input_token=3e-6,
        cost_per_output_token=15e-6,
        retry_policy=p,
    )


def _openai_server(**kw: Any) -> OpenAIChatServer:
    return OpenAIChatServer(responder, **kw)


PROVIDERS = [
    Provider("ollama", lambda **kw: OllamaServer(responder, **kw), _ollama, True, (0.0, 0.0), secrets=()),
    Provider("anthropic", lambda **kw: AnthropicServer(responder, **kw), _anthropic, False, (3e-6, 15e-6)),
    Provider("gemini", lambda **kw: GeminiServer(responder, **kw), _gemini, True, (0.30e-6, 2.50e-6)),
    Provider("azure", lambda **kw: AzureOpenAIServer(responder, **kw), _azure, True, (2e-6, 8e-6)),
    Provider(
        "deepseek", _openai_server, _hosted("DeepSeekModel", "deepseek-chat"), True, (0.028e-6, 0.42e-6)
    ),
    Provider("grok", _openai_server, _hosted("GrokModel", "grok-4"), True, (3e-6, 15e-6)),
    Provider("kimi", _openai_server, _hosted("KimiModel", "kimi-k2"), True, (0.58e-6, 2.29e-6)),
    Provider("openrouter", _openai_server, _hosted("OpenRouterModel", "openai/gpt-5.4"), True, None),
    Provider("portkey", _openai_server, _hosted("PortkeyModel", "gpt-4.1"), True, None),
    pytest.param(
        Provider("litellm", _openai_server, _litellm, True, (2e-6, 8e-6)),
        marks=pytest.mark.skipif(not HAS_LITELLM, reason="litellm extra not installed"),
        id="litellm",
    ),
    pytest.param(
        Provider(
            "bedrock",
            lambda **kw: BedrockServer(responder, access_key_id=AWS_KEY_ID, **kw),
            _bedrock,
            False,
            (3e-6, 15e-6),
            secrets=(AWS_SECRET,),
        ),
        marks=pytest.mark.skipif(not HAS_BOTO3, reason="bedrock extra (boto3) not installed"),
        id="bedrock",
    ),
]
IDS = [p.id if isinstance(p, Provider) else None for p in PROVIDERS]
POLICY = RetryPolicy(max_retries=2, timeout=5.0, base_delay=0.001, max_delay=0.002)


@contextmanager
def running(provider: Provider, policy: RetryPolicy = POLICY) -> Iterator[tuple[Any, Any]]:
    kw = {} if provider.id in ("ollama", "bedrock") else {"api_key": KEY}
    with provider.server(**kw) as server:
        yield server, provider.make(server, KEY, policy)
