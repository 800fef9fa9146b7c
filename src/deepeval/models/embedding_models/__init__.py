"""Embedding models on :class:`~deepeval.models.base_model.DeepEvalBaseEmbeddingModel` (imported lazily)."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "OpenAIEmbeddingModel": "deepeval.models.embedding_models.openai_embedding_model",
    "AzureOpenAIEmbeddingModel": "deepeval.models.embedding_models.azure_embedding_model",
    "LocalEmbeddingModel": "deepeval.models.embedding_models.local_embedding_model",
    "OllamaEmbeddingModel": "deepeval.models.embedding_models.ollama_embedding_model",
    "EmbeddedEmbeddingModel": "deepeval.models.embedding_models.embedded_embedding_model",
}

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.models.embedding_models' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
