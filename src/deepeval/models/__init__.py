"""Judges: LLM clients and System One (decision) models.

Clients are imported lazily so that ``import deepeval`` stays fast and optional extras stay optional.
"""

from __future__ import annotations

import importlib
from typing import Any

from deepeval.models.base_model import DeepEvalBaseEmbeddingModel, DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

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
    "OpenAIEmbeddingModel": "deepeval.models.embedding_models.openai_embedding_model",
    "AzureOpenAIEmbeddingModel": "deepeval.models.embedding_models.azure_embedding_model",
    "LocalEmbeddingModel": "deepeval.models.embedding_models.local_embedding_model",
    "OllamaEmbeddingModel": "deepeval.models.embedding_models.ollama_embedding_model",
    "EmbeddedEmbeddingModel": "deepeval.models.embedding_models.embedded_embedding_model",
    "TypeSafeModel": "deepeval.models.system_one.typesafe",
    "LogprobSystemOneModel": "deepeval.models.system_one.logprob",
    "EmbeddedJudge": "deepeval.models.embedded",
}

__all__ = ["DeepEvalBaseEmbeddingModel", "DeepEvalBaseLLM", "DeepEvalBaseSystemOneModel", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.models' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
