"""deepeval: LLM evaluation with LLM, hybrid and System One judges, and an embedded offline default judge."""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "evaluate": "deepeval.evaluate",
    "assert_test": "deepeval.evaluate",
}

__all__ = ["__version__", "assert_test", "evaluate"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'deepeval' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
