"""Multi-turn test case (``ConversationalTestCase``) and ``Turn``."""

from __future__ import annotations

from typing import Any

from pydantic import StrictStr, field_validator

from deepeval.test_case._base import CaseModel
from deepeval.test_case._llm import RetrievedContextData, ToolCall

ROLES = ("user", "assistant")


class Turn(CaseModel):
    """One message of a conversation. ``role`` is ``"user"`` or ``"assistant"``.

    Raises:
        TypeError: wrong field type, or a role other than ``user``/``assistant`` (the message lists both).
    """

    role: StrictStr
    content: StrictStr
    retrieval_context: list[StrictStr | RetrievedContextData] | None = None
    tools_called: list[ToolCall] | None = None
    metadata: dict[str, Any] | None = None

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
    metadata: dict[str, Any] | None = None
    tags: list[StrictStr] | None = None

    @field_validator("turns")
    @classmethod
    def _non_empty(cls, value: list[Turn]) -> list[Turn]:
        if not value:
            raise ValueError("turns must hold at least one Turn")
        return value
