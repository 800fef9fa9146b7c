"""Judges: LLM clients and System One (decision) models.

Clients are imported lazily so that ``import deepeval`` stays fast and optional extras stay optional.
"""

from __future__ import annotations

import importlib
from typing import Any

from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

_LAZY = {
    "OpenAIModel": "deepeval.models.llms.openai_model",
    "GPTModel": "deepeval.models.llms.openai_model",
    "LocalModel": "deepeval.models.llms.local_model",
    "GGUFModel": "deepeval.models.llms.gguf_model",
    "TypeSafeModel": "deepeval.models.system_one.typesafe",
    "LogprobSystemOneModel": "deepeval.models.system_one.logprob",
    "EmbeddedJudge": "deepeval.models.embedded",
}

__all__ = ["DeepEvalBaseLLM", "DeepEvalBaseSystemOneModel", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval.models' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
