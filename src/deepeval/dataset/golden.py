"""Goldens: the inputs (and optional expectations) a dataset holds before the application under test runs.

``Golden`` becomes an ``LLMTestCase`` in user code (``LLMTestCase(input=g.input, actual_output=app(g.input),
expected_output=g.expected_output, ...)``); ``ConversationalGolden`` describes a conversation by its scenario.
Both accept snake_case and camelCase field names and serialise camelCase, like the test cases; bad input raises
:class:`~deepeval.errors.InvalidGoldenError` naming the field (a ``TypeError`` like a bad test case, and a
``ValueError`` like deepeval's pydantic goldens).
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar, Literal

from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr, field_validator, model_validator

from deepeval.errors import InvalidGoldenError
from deepeval.test_case import RetrievedContextData, ToolCall, Turn
from deepeval.test_case.base import CaseModel, Count, Number

FREQUENCIES = ("rare", "normal", "frequent")
OVERLAPS = ("yield", "adaptive", "insist")


class _GoldenModel(CaseModel):
    """Bad input raises :class:`~deepeval.errors.InvalidGoldenError` (a ``TypeError`` and a ``ValueError``)."""

    invalid_input_error: ClassVar[type[Exception]] = InvalidGoldenError


class Expectations(_GoldenModel):
    """Behaviour a case must show (``must``) and must not show (``must_not``); each condition is stripped and must
    be non-empty. ``model`` (a judge name) and ``eval_mode`` are kept as data for files."""

    model: StrictStr | None = Field(default=None, repr=False)
    eval_mode: Literal["llm", "system_one"] | None = None
    must: list[StrictStr] = Field(default_factory=list)
    must_not: list[StrictStr] = Field(default_factory=list)

    @field_validator("must", "must_not")
    @classmethod
    def _non_empty_conditions(cls, conditions: list[str]) -> list[str]:
        stripped = [c.strip() for c in conditions]
        if any(not c for c in stripped):
            raise ValueError("every condition must be non-empty")
        return stripped

    def __bool__(self) -> bool:
        return bool(self.must or self.must_not)


class InterruptionBehavior(_GoldenModel):
    """How readily a simulated caller talks over the agent (data for voice simulation, which this package does not
    run): ``frequency`` rare / normal / frequent, ``overlap`` yield / adaptive / insist."""

    frequency: StrictStr = "normal"
    overlap: StrictStr = "adaptive"

    @field_validator("frequency")
    @classmethod
    def _known_frequency(cls, value: str) -> str:
        if value not in FREQUENCIES:
            raise ValueError(f"unknown interruption frequency {value!r}; use one of {', '.join(FREQUENCIES)}")
        return value

    @field_validator("overlap")
    @classmethod
    def _known_overlap(cls, value: str) -> str:
        if value not in OVERLAPS:
            raise ValueError(f"unknown overlap behavior {value!r}; use one of {', '.join(OVERLAPS)}")
        return value


class BackgroundNoiseSettings(_GoldenModel):
    """Background audio under a simulated caller (data only): a .wav/.mp3 path and a volume in [0, 1]."""

    audio: StrictStr
    volume: StrictFloat | StrictInt = Field(default=0.3, ge=0.0, le=1.0)


class Persona(_GoldenModel):
    """Who the simulated user of a conversation is. ``characteristics`` is free text; the voice fields are kept
    as data (this package has no voice simulation)."""

    name: StrictStr | None = None
    characteristics: StrictStr
    metadata: dict[str, Any] | None = None
    interruption_behavior: InterruptionBehavior | None = None
    speaks_first: StrictBool = True
    muted: StrictBool = False
    voice: StrictStr | None = None
    background_noise: BackgroundNoiseSettings | None = None
    multilingual_stt: StrictBool = False
    hold_timeout: StrictFloat | StrictInt | None = Field(default=None, gt=0)

    def tts_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a text-to-speech call: the voice, when one is set."""
        return {} if self.voice is None else {"voice": self.voice}


class Golden(_GoldenModel):
    """One single-turn golden. ``input`` is required; every other field is optional.

    Raises:
        InvalidGoldenError: ``input`` missing, or a field of the wrong type (the message names the field); a
            ``TypeError`` and a ``ValueError``.
    """

    id: StrictStr | None = Field(default=None, exclude=True)
    input: StrictStr
    actual_output: StrictStr | None = None
    expected_output: StrictStr | None = None
    context: list[StrictStr] | None = None
    retrieval_context: list[StrictStr | RetrievedContextData] | None = None
    additional_metadata: dict[str, Any] | None = None
    comments: StrictStr | None = None
    tools_called: list[ToolCall] | None = None
    expected_tools: list[ToolCall] | None = None
    token_cost: Number | None = None
    input_token_count: Count | None = None
    output_token_count: Count | None = None
    source_file: StrictStr | None = None
    name: StrictStr | None = None
    custom_column_key_values: dict[StrictStr, StrictStr] | None = None
    expectations: Expectations | None = None
    expected_labels: dict[StrictStr, StrictStr] | None = None


class ConversationalGolden(_GoldenModel):
    """One multi-turn golden. ``scenario`` is required. ``user_description`` is the older spelling of
    ``persona.characteristics``: giving it alone builds a :class:`Persona` (with a ``DeprecationWarning``), and the
    two always agree.

    Raises:
        InvalidGoldenError: ``scenario`` missing, a field of the wrong type, or ``persona`` and
            ``user_description`` given with different text.
    """

    id: StrictStr | None = Field(default=None, exclude=True)
    scenario: StrictStr
    expected_outcome: StrictStr | None = None
    persona: Persona | None = Field(default=None, exclude=True)
    user_description: StrictStr | None = None
    context: list[StrictStr] | None = None
    additional_metadata: dict[str, Any] | None = None
    comments: StrictStr | None = None
    name: StrictStr | None = None
    custom_column_key_values: dict[StrictStr, StrictStr] | None = None
    expectations: Expectations | None = None
    expected_labels: dict[StrictStr, StrictStr] | None = None
    turns: list[Turn] | None = None

    @model_validator(mode="after")
    def _persona_and_user_description_agree(self) -> ConversationalGolden:
        persona, description = self.persona, self.user_description
        if persona is None and description is not None:
            warnings.warn(
                "'user_description' is deprecated; use persona=Persona(characteristics=...)",
                DeprecationWarning,
                stacklevel=2,
            )
            # object.__setattr__: assignment would validate again and re-enter this validator
            object.__setattr__(self, "persona", Persona(characteristics=description))
        elif persona is not None and description is None:
            object.__setattr__(self, "user_description", persona.characteristics)
        elif persona is not None and description != persona.characteristics:
            raise ValueError(
                "persona.characteristics and user_description hold conflicting text; give one of them"
            )
        return self
