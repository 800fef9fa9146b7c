"""Single-turn test case (``LLMTestCase``) and its parts."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any, Self

from pydantic import Field, PrivateAttr, StrictBool, StrictStr, model_validator

from deepeval.test_case._expectations import Expectations
from deepeval.test_case._image import MLLMImage, has_placeholder, images_in
from deepeval.test_case._mcp import MCPPromptCall, MCPResourceCall, MCPServer, MCPToolCall
from deepeval.test_case.base import CaseModel, Count, MetadataAlias, Number, deprecated_metadata_alias


class SingleTurnParams(str, Enum):
    """Names of the ``LLMTestCase`` fields a metric can require (deepeval's members, in its order)."""

    INPUT = "input"
    ACTUAL_OUTPUT = "actual_output"
    EXPECTED_OUTPUT = "expected_output"
    CONTEXT = "context"
    RETRIEVAL_CONTEXT = "retrieval_context"
    METADATA = "metadata"
    TAGS = "tags"
    TOOLS_CALLED = "tools_called"
    EXPECTED_TOOLS = "expected_tools"
    MCP_SERVERS = "mcp_servers"
    MCP_TOOLS_CALLED = "mcp_tools_called"
    MCP_RESOURCES_CALLED = "mcp_resources_called"
    MCP_PROMPTS_CALLED = "mcp_prompts_called"


class ToolCallParams(str, Enum):
    """The ``ToolCall`` fields a tool-correctness check can compare besides the name."""

    INPUT_PARAMETERS = "input_parameters"
    OUTPUT = "output"


class ToolCallType(str, Enum):
    """Whether a tool call went to a plain function or through MCP (serialised as its value)."""

    FUNCTION = "FUNCTION"
    MCP = "MCP"


def _hashable(obj: Any) -> Any:
    """A hashable stand-in for ``obj`` (dicts, lists and sets converted recursively); an unhashable leaf becomes a
    token of its type, so equal objects still hash alike."""
    if isinstance(obj, dict):
        return tuple(sorted(((k, _hashable(v)) for k, v in obj.items()), key=repr))
    if isinstance(obj, (list, tuple)):
        return tuple(_hashable(v) for v in obj)
    if isinstance(obj, (set, frozenset)):
        return frozenset(_hashable(v) for v in obj)
    try:
        hash(obj)
    except TypeError:
        return ("<unhashable>", type(obj).__qualname__)
    return obj


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
    type: ToolCallType = ToolCallType.FUNCTION
    description: StrictStr | None = None
    reasoning: StrictStr | None = None
    output: Any = None
    input_parameters: dict[str, Any] | None = None

    def __eq__(self, other: object) -> bool:
        """Two calls are equal when name, input parameters and output are (description, reasoning and type are
        commentary), as in deepeval."""
        if not isinstance(other, ToolCall):
            return False
        return (self.name, self.input_parameters, self.output) == (
            other.name,
            other.input_parameters,
            other.output,
        )

    def __hash__(self) -> int:
        return hash((self.name, _hashable(self.input_parameters or {}), _hashable(self.output)))

    def __repr__(self) -> str:
        """``ToolCall(name="...", ...)`` with only the fields that are set, dict parameters and outputs as indented
        JSON (the layout deepeval prints)."""
        parts = [f'name="{self.name}"', f'type="{self.type.value}"']
        parts += [
            f'{k}="{v}"' for k, v in (("description", self.description), ("reasoning", self.reasoning)) if v
        ]
        for label, value in (("input_parameters", self.input_parameters), ("output", self.output)):
            if isinstance(value, dict) and (value or label == "output"):
                text = json.dumps(value, indent=4, ensure_ascii=False, default=str)
                parts.append(f"{label}=" + text.replace("\n", "\n    "))
            elif label == "output" and value is not None:
                parts.append(f"output={value!r}")
        return "ToolCall(\n    " + ",\n    ".join(parts) + "\n)"


class LLMTestCase(CaseModel):
    """One input/output interaction of the application under test.

    Fields accept snake_case or camelCase names; ``model_dump()`` uses the snake_case field names, as deepeval (``by_alias=True``: camelCase). ``retrieval_context`` items may be
    strings or :class:`RetrievedContextData`; metrics read them through :meth:`retrieval_context_texts`.

    Raises:
        TypeError: a field has the wrong type (message names the field) or ``input`` is missing.
    """

    input: StrictStr
    actual_output: StrictStr | None = None
    expected_output: StrictStr | None = None
    context: list[StrictStr] | None = None
    retrieval_context: list[StrictStr | RetrievedContextData] | None = None
    metadata: dict[str, Any] | None = Field(default=None, validation_alias=MetadataAlias)
    tools_called: list[ToolCall] | None = None
    expected_tools: list[ToolCall] | None = None
    comments: StrictStr | None = None
    token_cost: Number | None = None
    input_token_count: Count | None = None
    output_token_count: Count | None = None
    completion_time: Number | None = None
    flaky: StrictBool = False
    multimodal: StrictBool = False
    name: StrictStr | None = None
    tags: list[StrictStr] | None = Field(default=None)
    mcp_servers: list[MCPServer] | None = None
    mcp_tools_called: list[MCPToolCall] | None = None
    mcp_resources_called: list[MCPResourceCall] | None = None
    mcp_prompts_called: list[MCPPromptCall] | None = None
    custom_column_key_values: dict[StrictStr, StrictStr] | None = None
    expectations: Expectations | None = None
    expected_labels: dict[StrictStr, StrictStr] | None = None

    additional_metadata = deprecated_metadata_alias()

    # deepeval's private bookkeeping of where a dataset put this case (deepeval's per-instance ``_identifier`` is left
    # out: it makes two equal test cases compare unequal)
    _dataset_rank: int | None = PrivateAttr(default=None)
    _dataset_alias: str | None = PrivateAttr(default=None)
    _dataset_id: str | None = PrivateAttr(default=None)
    _dataset_version: str | None = PrivateAttr(default=None)
    # deepeval's nested span dict of the agent run this case came from (name, type, input, output, children...):
    # set by component evaluation for metrics whose ``requires_trace`` is true, or by hand; read by trace metrics
    _trace_dict: dict[str, Any] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _multimodal_when_it_holds_an_image(self) -> Self:
        """``multimodal`` becomes True when the input, outputs or contexts hold an :class:`MLLMImage` placeholder
        (as deepeval sets it); a ``multimodal=True`` given is kept."""
        if not self.multimodal and any(has_placeholder(t) for t in self._texts()):
            object.__setattr__(
                self, "multimodal", True
            )  # not through validate_assignment (it would re-enter)
        return self

    def _texts(self) -> list[str | None]:
        texts: list[str | None] = [self.input, self.actual_output, self.expected_output]
        texts += self.context or []
        texts += [
            c.context if isinstance(c, RetrievedContextData) else c for c in self.retrieval_context or []
        ]
        return texts

    def _get_images_mapping(self) -> dict[str, MLLMImage] | None:
        """The :class:`MLLMImage` objects whose placeholders this test case's text holds, by id (None when none;
        deepeval's name)."""
        return images_in(self._texts()) or None

    def retrieval_context_texts(self) -> list[str] | None:
        """The retrieval context as plain strings (``RetrievedContextData`` rendered as ``"<source>: <context>"``)."""
        if self.retrieval_context is None:
            return None
        return [str(node) for node in self.retrieval_context]
