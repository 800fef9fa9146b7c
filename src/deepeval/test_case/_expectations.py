"""``Expectations``: behaviour a test case must show (``must``) or avoid (``must_not``), as deepeval accepts it on
test cases and goldens. Ours stores and exports them; it has no classifier that grades them (see the report)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_serializer, field_validator


class Expectations(BaseModel):
    """``must`` / ``must_not``: lists of non-empty conditions (stripped); ``model``: a judge name or a
    ``DeepEvalBaseLLM`` (only a name is serialised); ``eval_mode``: ``"llm" | "system_one"`` or None."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True)

    model: Any = Field(default=None, repr=False)
    eval_mode: Literal["llm", "system_one"] | None = None
    must: list[str] = Field(default_factory=list)
    must_not: list[str] = Field(
        default_factory=list,
        serialization_alias="mustNot",
        validation_alias=AliasChoices("must_not", "mustNot"),
    )

    @field_validator("model")
    @classmethod
    def _model_kind(cls, model: Any) -> Any:
        from deepeval.models.base_model import DeepEvalBaseLLM

        if model is not None and not isinstance(model, (str, DeepEvalBaseLLM)):
            raise ValueError("model must be a model name or a DeepEvalBaseLLM instance")
        return model

    @field_validator("must", "must_not")
    @classmethod
    def _non_empty(cls, conditions: list[str]) -> list[str]:
        if any(not c.strip() for c in conditions):
            raise ValueError("every expectation must be a non-empty condition")
        return [c.strip() for c in conditions]

    @field_serializer("model")
    def _model_name(self, model: Any) -> str | None:
        return model if isinstance(model, str) else None  # a live client (and its key) is never serialised
