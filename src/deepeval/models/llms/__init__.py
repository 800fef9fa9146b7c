"""LLM judge clients (imported lazily: ``openai`` and optional extras load on first use)."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "OpenAIModel": "deepeval.models.llms.openai_model",
    "GPTModel": "deepeval.models.llms.openai_model",
    "LocalModel": "deepeval.models.llms.local_model",
    "GGUFModel": "deepeval.models.llms.gguf_model",
    "AzureOpenAIModel": "deepeval.models.llms.azure_model",
    "OllamaModel": "deepeval.models.llms.ollama_model",
    "AnthropicModel": "deepeval.models.llms.anthropic_model",
    "GeminiModel": "deepeval.models.llms.gemini_model",
    "AmazonBedrockModel": "deepeval.models.llms.amazon_bedrock_model",
    "LiteLLMModel": "deepeval.models.llms.litellm_model",
    "KimiModel": "deepeval.models.llms.kimi_model",
    "GrokModel": "deepeval.models.llms.grok_model",
    "DeepSeekModel": "deepeval.models.llms.deepseek_model",
    "PortkeyModel": "deepeval.models.llms.portkey_model",
    "OpenRouterModel": "deepeval.models.llms.openrouter_model",
    "OpenAICompatibleLLM": "deepeval.models.llms.openai_compatible",
    "LogprobCompletion": "deepeval.models.logprobs",
    "TokenLogprob": "deepeval.models.logprobs",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.models.llms' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
