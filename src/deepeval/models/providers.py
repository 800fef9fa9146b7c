"""The provider judges the settings can select (``USE_<PROVIDER>`` switches, see
:data:`deepeval.config.eval_mode.PROVIDER_SWITCHES`), in one table: which class builds each, how it names itself
before it is built, and which settings a shared client of it is keyed on. :mod:`deepeval.models.plan` names the
judge from here and :mod:`deepeval.models.resolve` builds it; nothing here imports a client."""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any

from deepeval.config.settings import Settings

_TIMEOUTS = ("DEEPEVAL_JUDGE_TIMEOUT", "DEEPEVAL_JUDGE_MAX_RETRIES", "TEMPERATURE")


@dataclass(frozen=True)
class ProviderSpec:
    """One provider: ``module.cls`` builds it from the settings with no arguments; its model comes from the
    first of ``model_keys`` that is set, else ``default_model``; it reports ``"<model> (<label>)"`` (``label``
    None: the bare model); ``settings`` key its shared client."""

    kind: str
    title: str
    module: str
    cls: str
    model_keys: tuple[str, ...]
    default_model: str | None
    label: str | None
    settings: tuple[str, ...]

    def model(self, settings: Settings) -> str | None:
        for key in self.model_keys:
            value = settings.get(key)
            if value:
                return value
        return self.default_model

    def display_name(self, settings: Settings) -> str | None:
        """The ``get_model_name()`` the built judge will report (None: no model configured; building fails)."""
        model = self.model(settings)
        if model is None:
            return None
        if self.kind == "litellm":
            return f"{model} ({model.split('/', 1)[0] if '/' in model else 'LiteLLM'})"
        return model if self.label is None else f"{model} ({self.label})"

    def load(self) -> Any:
        """The client class (imports its module)."""
        return getattr(importlib.import_module(self.module), self.cls)


def _spec(
    kind: str,
    title: str,
    module: str,
    cls: str,
    model_key: str,
    default: str | None,
    label: str | None,
    *keys: str,
) -> ProviderSpec:
    return ProviderSpec(
        kind,
        title,
        f"deepeval.models.llms.{module}",
        cls,
        (model_key,),
        default,
        label,
        (model_key, *keys, *_TIMEOUTS),
    )


def _cost_keys(prefix: str) -> tuple[str, ...]:
    return (f"{prefix}_API_KEY", f"{prefix}_COST_PER_INPUT_TOKEN", f"{prefix}_COST_PER_OUTPUT_TOKEN")


_OLLAMA_NAMES = (
    "OLLAMA_MODEL_NAME",
    "LOCAL_MODEL_NAME",
)  # ours: LOCAL_MODEL_NAME too (see ollama_model_name)

PROVIDERS: dict[str, ProviderSpec] = {
    s.kind: (s if s.kind != "ollama" else dataclasses.replace(s, model_keys=_OLLAMA_NAMES))
    for s in (
        _spec(
            "gemini",
            "Gemini",
            "gemini_model",
            "GeminiModel",
            "GEMINI_MODEL_NAME",
            "gemini-3.6-flash",
            "Gemini",
            "GOOGLE_API_KEY",
            "GEMINI_COST_PER_INPUT_TOKEN",
            "GEMINI_COST_PER_OUTPUT_TOKEN",
            "GOOGLE_GENAI_USE_VERTEXAI",
            "GOOGLE_CLOUD_PROJECT",
            "GOOGLE_CLOUD_LOCATION",
        ),
        _spec(
            "litellm",
            "LiteLLM",
            "litellm_model",
            "LiteLLMModel",
            "LITELLM_MODEL_NAME",
            None,
            None,
            "LITELLM_API_KEY",
            "LITELLM_API_BASE",
            "LITELLM_PROXY_API_KEY",
            "LITELLM_PROXY_API_BASE",
        ),
        _spec(
            "portkey",
            "Portkey",
            "portkey_model",
            "PortkeyModel",
            "PORTKEY_MODEL_NAME",
            None,
            "Portkey",
            "PORTKEY_API_KEY",
            "PORTKEY_BASE_URL",
            "PORTKEY_PROVIDER_NAME",
        ),
        _spec(
            "ollama",
            "Ollama",
            "ollama_model",
            "OllamaModel",
            "OLLAMA_MODEL_NAME",
            None,
            "Ollama",
            "LOCAL_MODEL_BASE_URL",
            "LOCAL_MODEL_NAME",
        ),
        _spec(
            "azure",
            "Azure OpenAI",
            "azure_model",
            "AzureOpenAIModel",
            "AZURE_MODEL_NAME",
            None,
            "Azure",
            "AZURE_OPENAI_API_KEY",
            "AZURE_OPENAI_AD_TOKEN",
            "AZURE_OPENAI_ENDPOINT",
            "AZURE_DEPLOYMENT_NAME",
            "OPENAI_API_VERSION",
            "OPENAI_COST_PER_INPUT_TOKEN",
            "OPENAI_COST_PER_OUTPUT_TOKEN",
        ),
        _spec(
            "kimi",
            "Kimi",
            "kimi_model",
            "KimiModel",
            "MOONSHOT_MODEL_NAME",
            None,
            "KIMI",
            *_cost_keys("MOONSHOT"),
        ),
        _spec(
            "grok", "Grok", "grok_model", "GrokModel", "GROK_MODEL_NAME", None, "Grok", *_cost_keys("GROK")
        ),
        _spec(
            "deepseek",
            "DeepSeek",
            "deepseek_model",
            "DeepSeekModel",
            "DEEPSEEK_MODEL_NAME",
            None,
            "Deepseek",
            *_cost_keys("DEEPSEEK"),
        ),
        _spec(
            "openrouter",
            "OpenRouter",
            "openrouter_model",
            "OpenRouterModel",
            "OPENROUTER_MODEL_NAME",
            "openai/gpt-5.4",
            "OpenRouter",
            "OPENROUTER_BASE_URL",
            *_cost_keys("OPENROUTER"),
        ),
        _spec(
            "anthropic",
            "Anthropic",
            "anthropic_model",
            "AnthropicModel",
            "ANTHROPIC_MODEL_NAME",
            "claude-opus-5",
            "Anthropic",
            *_cost_keys("ANTHROPIC"),
        ),
        _spec(
            "bedrock",
            "Amazon Bedrock",
            "amazon_bedrock_model",
            "AmazonBedrockModel",
            "AWS_BEDROCK_MODEL_NAME",
            None,
            None,
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "AWS_BEDROCK_REGION",
            "AWS_BEDROCK_COST_PER_INPUT_TOKEN",
            "AWS_BEDROCK_COST_PER_OUTPUT_TOKEN",
        ),
    )
}
