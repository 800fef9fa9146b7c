"""Test cases: :class:`LLMTestCase` for single-turn, :class:`ConversationalTestCase` for multi-turn evaluation."""

from deepeval.errors import MissingTestCaseParamsError
from deepeval.test_case._conversational import ConversationalTestCase, Turn
from deepeval.test_case._llm import LLMTestCase, LLMTestCaseParams, RetrievedContextData, ToolCall

__all__ = [
    "ConversationalTestCase",
    "LLMTestCase",
    "LLMTestCaseParams",
    "MissingTestCaseParamsError",
    "RetrievedContextData",
    "ToolCall",
    "Turn",
]
