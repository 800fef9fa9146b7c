"""Multi-turn test case (``ConversationalTestCase``) and ``Turn``."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import (
    Field,
    InstanceOf,
    StrictBool,
    StrictStr,
    field_validator,
    model_validator,
)

from deepeval.test_case._audio import Audio
from deepeval.test_case._expectations import Expectations
from deepeval.test_case._llm import RetrievedContextData, ToolCall
from deepeval.test_case._mcp import MCPPromptCall, MCPResourceCall, MCPServer, MCPToolCall
from deepeval.test_case.base import CaseModel, MetadataAlias, Number, deprecated_metadata_alias

ROLES = ("user", "assistant")


class MultiTurnParams(str, Enum):
    """Names of the conversation and turn fields a conversational metric can require (deepeval's members)."""

    ROLE = "role"
    CONTENT = "content"
    PROVIDER_TRANSCRIPT = "provider_transcript"
    AUDIO = "audio"
    METADATA = "metadata"
    TAGS = "tags"
    SCENARIO = "scenario"
    EXPECTED_OUTCOME = "expected_outcome"
    CONTEXT = "context"
    USER_DESCRIPTION = "user_description"
    RETRIEVAL_CONTEXT = "retrieval_context"
    CHATBOT_ROLE = "chatbot_role"
    TOOLS_CALLED = "tools_called"
    MCP_TOOLS = "mcp_tools_called"
    MCP_RESOURCES = "mcp_resources_called"
    MCP_PROMPTS = "mcp_prompts_called"


class Turn(CaseModel):
    """One message of a conversation. ``role`` is ``"user"`` or ``"assistant"``.

    Raises:
        TypeError: wrong field type, or a role other than ``user``/``assistant`` (the message lists both).
    """

    role: StrictStr
    content: StrictStr
    user_id: StrictStr | None = None
    audio: InstanceOf[Audio] | None = None
    latency_ms: Number | None = None
    interrupted: StrictBool | None = None
    provider_transcript: StrictStr | None = None
    retrieval_context: list[StrictStr | RetrievedContextData] | None = None
    tools_called: list[ToolCall] | None = None
    mcp_tools_called: list[MCPToolCall] | None = None
    mcp_resources_called: list[MCPResourceCall] | None = None
    mcp_prompts_called: list[MCPPromptCall] | None = None
    metadata: dict[str, Any] | None = Field(default=None, validation_alias=MetadataAlias)

    additional_metadata = deprecated_metadata_alias()

    @field_validator("latency_ms")
    @classmethod
    def _as_float(cls, value: float | int | None) -> float | None:
        return None if value is None else float(value)

    @field_validator("role")
    @classmethod
    def _known_role(cls, value: str) -> str:
        if value not in ROLES:
            raise ValueError(f"role must be one of {', '.join(repr(r) for r in ROLES)}, not {value!r}")
        return value


class ConversationalTestCase(CaseModel):
    """A conversation to evaluate. ``turns`` is required and non-empty; dicts are accepted and become :class:`Turn`.

    Raises:
        TypeError: ``turns`` missing, empty, or holding an invalid turn; any other field of the wrong type.
    """

    turns: list[Turn]
    scenario: StrictStr | None = None
    context: list[StrictStr] | None = None
    name: StrictStr | None = None
    user_description: StrictStr | None = None
    expected_outcome: StrictStr | None = None
    chatbot_role: StrictStr | None = None
    metadata: dict[str, Any] | None = Field(default=None, validation_alias=MetadataAlias)
    comments: StrictStr | None = None
    tags: list[StrictStr] | None = None
    flaky: StrictBool = False
    expectations: Expectations | None = None
    expected_labels: dict[StrictStr, StrictStr] | None = None
    mcp_servers: list[MCPServer] | None = None
    call_recording_path: StrictStr | None = Field(default=None, exclude=True)
    multimodal: StrictBool = False
    voice: StrictBool = False

    additional_metadata = deprecated_metadata_alias()

    @model_validator(mode="after")
    def _voice_when_a_turn_has_audio(self) -> ConversationalTestCase:
        if not self.voice and any(t.audio is not None for t in self.turns):
            object.__setattr__(
                self, "voice", True
            )  # not through validate_assignment: the model is mid-validation
        return self

    @field_validator("turns")
    @classmethod
    def _non_empty(cls, value: list[Turn]) -> list[Turn]:
        """Non-empty; the turns are copied (as deepeval does), so changing a turn of the test case never changes
        the caller's ``Turn`` objects (or another test case built from them)."""
        if not value:
            raise ValueError("turns must hold at least one Turn")
        return [t.model_copy(deep=True) for t in value]
