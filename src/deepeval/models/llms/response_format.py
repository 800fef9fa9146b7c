"""The structured-output ladder's request side: what to send for a pydantic schema on each rung.

Rungs, best first: ``json_schema`` (the server constrains decoding to the schema), ``json_object`` (the server
guarantees JSON; the schema goes into the prompt), ``text`` (no server help; the schema goes into the prompt).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any

from pydantic import BaseModel

RUNGS: tuple[str, ...] = ("json_schema", "json_object", "text")

#: format names accepted from users / ``LOCAL_MODEL_FORMAT`` -> rung
FORMAT_ALIASES = {
    "json_schema": "json_schema",
    "schema": "json_schema",
    "json_object": "json_object",
    "json": "json_object",
    "text": "text",
    "none": "text",
}


def normalise_format(value: str | None, default: str = "json_schema") -> str:
    """Map a user format name to a rung.

    Raises:
        ValueError: an unknown format name.
    """
    if value is None or not value.strip():
        return default
    key = value.strip().lower()
    if key not in FORMAT_ALIASES:
        raise ValueError(f"unknown structured-output format {value!r}; use json_schema, json or text")
    return FORMAT_ALIASES[key]


def strict_schema(schema: type[BaseModel]) -> dict[str, Any] | None:
    """The schema in OpenAI's strict subset, or None when the root is not an object (a fresh copy per call).

    Every object gets ``additionalProperties: false`` and lists all its properties as required; ``default``
    keywords are dropped (strict mode rejects them).
    """
    shared = _strict_schema_shared(schema)
    return None if shared is None else copy.deepcopy(shared)


@functools.lru_cache(maxsize=512)
def _strict_schema_shared(schema: type[BaseModel]) -> dict[str, Any] | None:
    """:func:`strict_schema`, built once per schema class (pydantic's schema generation plus the walk cost about
    0.5 ms, paid on every request before). Callers must not mutate the result: it goes into request bodies
    as is."""
    raw = copy.deepcopy(schema.model_json_schema())
    if raw.get("type") != "object":
        return None

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("default", None)
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(raw)
    return raw


@functools.lru_cache(maxsize=512)
def strict_expressible(schema: type[BaseModel]) -> bool:
    """False when the schema holds a free-form object (a ``dict[str, ...]`` field: an object with no
    ``properties``), which OpenAI's strict mode cannot express; such a schema is sent with ``"strict": false`` (the
    server still follows it; llama.cpp constrains decoding to it either way)."""

    def free_form(node: Any) -> bool:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" not in node:
                return True
            return any(free_form(v) for v in node.values())
        if isinstance(node, list):
            return any(free_form(v) for v in node)
        return False

    return not free_form(schema.model_json_schema())


def schema_name(schema: type[BaseModel]) -> str:
    """A name matching OpenAI's ``^[a-zA-Z0-9_-]{1,64}$``."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "Output"


def response_format(rung: str, schema: type[BaseModel]) -> dict[str, Any] | None:
    """The ``response_format`` request field for ``rung`` (None for ``text``, or when the schema's root is not an
    object on the ``json_schema`` rung, in which case ``json_object`` is sent)."""
    if rung == "json_schema":
        strict = _strict_schema_shared(schema)
        if strict is not None:
            return {
                "type": "json_schema",
                "json_schema": {
                    "name": schema_name(schema),
                    "schema": strict,
                    "strict": strict_expressible(schema),
                },
            }
        return {"type": "json_object"}
    if rung == "json_object":
        return {"type": "json_object"}
    return None


def schema_instruction(schema: type[BaseModel]) -> str:
    """Text appended to the prompt on the ``json_object`` and ``text`` rungs (our wording)."""
    return _schema_instruction(schema)


@functools.lru_cache(maxsize=512)
def _schema_instruction(schema: type[BaseModel]) -> str:
    return (
        "\n\nFormat of your reply: one JSON object, with no text before or after it, valid against this JSON "
        f"Schema:\n{json.dumps(schema.model_json_schema(), separators=(',', ':'))}"
    )
