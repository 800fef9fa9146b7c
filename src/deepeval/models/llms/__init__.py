"""LLM judge clients (imported lazily: ``openai`` and optional extras load on first use)."""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "OpenAIModel": "deepeval.models.llms.openai_model",
    "GPTModel": "deepeval.models.llms.openai_model",
    "LocalModel": "deepeval.models.llms.local_model",
    "GGUFModel": "deepeval.models.llms.gguf_model",
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
