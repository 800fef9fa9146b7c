"""Single-turn test case (``LLMTestCase``) and its parts."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import Field, StrictFloat, StrictInt, StrictStr

from deepeval.test_case._base import CaseModel


class LLMTestCaseParams(str, Enum):
    """Names of the ``LLMTestCase`` fields a metric can require."""

    INPUT = "input"
    ACTUAL_OUTPUT = "actual_output"
    EXPECTED_OUTPUT = "expected_output"
    CONTEXT = "context"
    RETRIEVAL_CONTEXT = "retrieval_context"
    TOOLS_CALLED = "tools_called"
    EXPECTED_TOOLS = "expected_tools"


class RetrievedContextData(CaseModel):
    """One retrieved chunk with its source; ``str()`` renders ``"<source>: <context>"`` (just the context when the
    source is empty)."""

    context: StrictStr
    source: StrictStr | None = None

    def __str__(self) -> str:
        return f"{self.source}: {self.context}" if self.source else self.context


class ToolCall(CaseModel):
    """A tool invocation made (or expected) by the application under test."""

    name: StrictStr
    description: StrictStr | None = None
    reasoning: StrictStr | None = None
    output: Any = None
    input_parameters: dict[str, Any] | None = None


class LLMTestCase(CaseModel):
    """One input/output interaction of the application under test.

    Fields accept snake_case or camelCase names; ``model_dump()`` uses camelCase. ``retrieval_context`` items may be
    strings or :class:`RetrievedContextData`; metrics read them through :meth:`retrieval_context_texts`.

    Raises:
        TypeError: a field has the wrong type (message names the field) or ``input`` is missing.
    """

    input: StrictStr
    actual_output: StrictStr | None = None
    expected_output: StrictStr | None = None
    context: list[StrictStr] | None = None
    retrieval_context: list[StrictStr | RetrievedContextData] | None = None
    metadata: dict[str, Any] | None = None
    tools_called: list[ToolCall] | None = None
    expected_tools: list[ToolCall] | None = None
    comments: StrictStr | None = None
    token_cost: StrictFloat | StrictInt | None = None
    completion_time: StrictFloat | StrictInt | None = None
    name: StrictStr | None = None
    tags: list[StrictStr] | None = Field(default=None)

    def retrieval_context_texts(self) -> list[str] | None:
        """The retrieval context as plain strings (``RetrievedContextData`` rendered as ``"<source>: <context>"``)."""
        if self.retrieval_context is None:
            return None
        return [str(node) for node in self.retrieval_context]
