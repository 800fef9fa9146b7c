"""Shared pydantic base for test-case types: camelCase aliases, TypeError on wrong types."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel


def _describe(err: ValidationError, owner: str) -> str:
    parts = []
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "<root>"
        parts.append(f"{owner}.{loc}: {e['msg']} (got {type(e.get('input')).__name__})")
    return "; ".join(parts)


class CaseModel(BaseModel):
    """Accepts snake_case and camelCase field names, serialises camelCase, raises ``TypeError`` on bad input.

    Raises:
        TypeError: a field has the wrong type or a required field is missing; the message names the field.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        serialize_by_alias=True,
        extra="forbid",
        arbitrary_types_allowed=False,
        validate_assignment=False,
    )

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as err:
            raise TypeError(_describe(err, type(self).__name__)) from None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with camelCase keys and ``None`` fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)
