"""Test cases: :class:`LLMTestCase` for single-turn, :class:`ConversationalTestCase` for multi-turn evaluation.

``LLMTestCaseParams`` and ``TurnParams`` are deepeval's deprecated names of :class:`SingleTurnParams` and
:class:`MultiTurnParams`; reading them warns (``DeprecationWarning``) as deepeval does.
"""

from __future__ import annotations

import warnings
from typing import Any

from deepeval.errors import MissingTestCaseParamsError
from deepeval.test_case._arena import ArenaTestCase, Contestant
from deepeval.test_case._audio import Audio
from deepeval.test_case._conversational import ConversationalTestCase, MultiTurnParams, Turn
from deepeval.test_case._expectations import Expectations
from deepeval.test_case._image import MLLMImage
from deepeval.test_case._llm import (
    LLMTestCase,
    RetrievedContextData,
    SingleTurnParams,
    ToolCall,
    ToolCallParams,
    ToolCallType,
)
from deepeval.test_case._mcp import (
    MCPPromptCall,
    MCPResourceCall,
    MCPServer,
    MCPToolCall,
    get_available_mcp_tool_names,
)

__all__ = [
    "ArenaTestCase",
    "Audio",
    "Contestant",
    "ConversationalTestCase",
    "Expectations",
    "LLMTestCase",
    "MCPPromptCall",
    "MCPResourceCall",
    "MCPServer",
    "MCPToolCall",
    "MLLMImage",
    "MissingTestCaseParamsError",
    "MultiTurnParams",
    "RetrievedContextData",
    "SingleTurnParams",
    "ToolCall",
    "ToolCallParams",
    "ToolCallType",
    "Turn",
    "get_available_mcp_tool_names",
]

_DEPRECATED = {
    "LLMTestCaseParams": ("SingleTurnParams", SingleTurnParams),
    "TurnParams": ("MultiTurnParams", MultiTurnParams),
}


def __getattr__(name: str) -> Any:
    if name in _DEPRECATED:
        new, value = _DEPRECATED[name]
        warnings.warn(
            f"'{name}' is deprecated and will be removed in a future release. Use '{new}' instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
