"""deepeval's module path for the single-turn types (``from deepeval.test_case.llm_test_case import ...``);
``LLMTestCaseParams`` is the deprecated name of ``SingleTurnParams`` here too."""

from __future__ import annotations

from typing import Any

from deepeval.test_case._audio import Audio
from deepeval.test_case._llm import (
    LLMTestCase,
    RetrievedContextData,
    SingleTurnParams,
    ToolCall,
    ToolCallParams,
    ToolCallType,
)

__all__ = [
    "Audio",
    "LLMTestCase",
    "RetrievedContextData",
    "SingleTurnParams",
    "ToolCall",
    "ToolCallParams",
    "ToolCallType",
]


def __getattr__(name: str) -> Any:
    if name == "LLMTestCaseParams":
        from deepeval.test_case import __getattr__ as deprecated

        return deprecated(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
