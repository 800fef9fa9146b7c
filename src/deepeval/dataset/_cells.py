"""How one field is written into, and read back from, one CSV cell or JSON value.

List cells use deepeval's delimiters: ``|`` joins ``context`` and ``retrieval_context`` items; ``;`` separates tool
names in a ``tools_called``/``expected_tools`` cell that is not JSON. A list is written as the plain join whenever
reading the join back gives the same list (the usual case, byte-identical to deepeval's files); otherwise (an item
holding the delimiter, a list of one empty string, an item that itself looks like a JSON array) the cell holds the
list as a JSON array of strings, which the reader recognises. An empty cell is ``None``; an empty list is ``[]``.

A ``RetrievedContextData`` item is written as ``deepeval_source=<source>,deepeval_context=<context>`` (deepeval's
marker) and rebuilt on reading.

Each ``parse_*`` raises ``ValueError`` with a short reason; the loader adds the file, row and field.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from deepeval.test_case import RetrievedContextData, ToolCall, Turn

DELIMITER = "|"
TOOLS_DELIMITER = ";"

_MARKER = re.compile(r"^deepeval_source=(?P<source>.*?),deepeval_context=(?P<context>.*)$", re.DOTALL)
# the Turn keys deepeval's dataset files hold (null ones are dropped on reading)
_TURN_KEYS_WRITTEN = (
    "role",
    "content",
    "user_id",
    "retrieval_context",
    "tools_called",
    "mcp_tools_called",
    "mcp_resources_called",
    "mcp_prompts_called",
    "metadata",
)


def _kind(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else f"a {type(value).__name__}"
    )


# ---- lists of strings -------------------------------------------------------------------------------------------


def _reason(err: BaseException) -> str:
    """Why a cell's JSON did not parse (a ``RecursionError`` is nesting too deep for the parser)."""
    return "nested too deeply to read" if isinstance(err, RecursionError) else str(err)


def _json_string_list(cell: str) -> list[str] | None:
    """The list a ``["a", "b"]`` cell holds, or ``None`` when the cell is not a JSON array of strings."""
    text = cell.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def split_cell(cell: str, delimiter: str) -> list[str]:
    """A list cell as items: a JSON array of strings as itself, ``""`` as ``[]``, anything else split."""
    as_json = _json_string_list(cell)
    if as_json is not None:
        return as_json
    return cell.split(delimiter) if cell else []


def join_cell(items: list[str], delimiter: str) -> str:
    """The cell text for ``items``: the plain join when :func:`split_cell` reads it back unchanged, else JSON (and
    ``[]`` for an empty list, since an empty cell means no value)."""
    joined = delimiter.join(items)
    if items and split_cell(joined, delimiter) == items:
        return joined
    return json.dumps(items, ensure_ascii=False)


def parse_string_list(value: Any, delimiter: str | None) -> list[str] | None:
    """A ``context`` value from a file: a list of strings, or (``delimiter`` given) a delimited string."""
    if value is None:
        return None
    if isinstance(value, str) and delimiter is not None:
        return split_cell(value, delimiter)
    if isinstance(value, list):
        return value  # item types are checked by the golden, which names the bad index
    raise ValueError(
        f"expected a list of strings{' or a delimited string' if delimiter else ''}, got {_kind(value)}"
    )


# ---- retrieval context ------------------------------------------------------------------------------------------


def dump_retrieval_item(item: str | RetrievedContextData) -> str:
    if isinstance(item, RetrievedContextData):
        # no source is written as an empty one (deepeval writes the text "None", which reads back as a source)
        return f"deepeval_source={item.source or ''},deepeval_context={item.context}"
    return item


def load_retrieval_items(items: list[Any] | None) -> list[Any] | None:
    """Rebuild ``RetrievedContextData`` from marker strings; other items are left as they are."""
    if items is None:
        return None
    out: list[Any] = []
    for item in items:
        match = _MARKER.match(item) if isinstance(item, str) else None
        if match:
            out.append(
                RetrievedContextData(context=match.group("context"), source=match.group("source") or None)
            )
        elif isinstance(item, dict):
            out.append(RetrievedContextData.model_validate(item))
        else:
            out.append(item)
    return out


def dump_retrieval_context(items: list[str | RetrievedContextData] | None) -> list[str] | None:
    return None if items is None else [dump_retrieval_item(i) for i in items]


# ---- tools ------------------------------------------------------------------------------------------------------


def _tool(raw: Any, index: int) -> ToolCall:
    if isinstance(raw, ToolCall):
        return raw
    if isinstance(raw, str):
        return ToolCall(name=raw)
    if not isinstance(raw, dict):
        raise ValueError(f"tool [{index}] is {_kind(raw)}, expected an object with a 'name'")
    fields = {k: v for k, v in raw.items() if v is not None}
    kind = fields.pop("type", "FUNCTION")
    if kind != "FUNCTION":
        raise ValueError(f"tool [{index}] has type {kind!r}; only FUNCTION tools are supported")
    try:
        return ToolCall.model_validate(fields)
    except TypeError as err:
        raise ValueError(f"tool [{index}]: {err}") from None


def parse_tools(value: Any, delimiter: str | None) -> list[ToolCall] | None:
    """Tools from a file: a JSON array of tool objects (a string holding one, in CSV), or (``delimiter`` given) a
    ``;``-separated list of tool names. deepeval's ``"type": "FUNCTION"`` and null keys are accepted."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except (ValueError, RecursionError) as err:
                raise ValueError(f"not a valid JSON array of tools ({_reason(err)})") from None
        elif delimiter is not None:
            value = [name.strip() for name in text.split(delimiter) if name.strip()] if text else []
        else:
            raise ValueError("expected an array of tool objects, got a string")
    if not isinstance(value, list):
        raise ValueError(f"expected an array of tool objects, got {_kind(value)}")
    return [_tool(raw, i) for i, raw in enumerate(value)]


def dump_tools(tools: list[ToolCall] | None) -> list[dict[str, Any]] | None:
    """Tools as deepeval writes them: camelCase keys, nulls left out, ``type`` first."""
    if tools is None:
        return None
    return [
        {"name": t.name, "type": "FUNCTION", **{k: v for k, v in t.to_dict().items() if k != "name"}}
        for t in tools
    ]


# ---- objects (metadata, custom columns, labels, expectations) --------------------------------------------------


def parse_object(value: Any, *, python_literal: bool = False) -> dict[str, Any] | None:
    """A JSON object (in CSV: a cell holding one; ``python_literal`` also accepts a Python dict literal, as
    deepeval does for metadata cells)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError) as err:
            if not python_literal:
                raise ValueError(f"not a valid JSON object ({_reason(err)})") from None
            try:
                value = ast.literal_eval(value)
            except (ValueError, SyntaxError, RecursionError, MemoryError):
                raise ValueError(
                    f"neither a JSON object nor a Python dict literal ({_reason(err)})"
                ) from None
    if not isinstance(value, dict):
        raise ValueError(f"expected an object, got {_kind(value)}")
    return value


# ---- numbers (CSV cells) ----------------------------------------------------------------------------------------


def parse_number(value: Any, *, integer: bool) -> float | int | None:
    if value is None or not isinstance(value, str):
        return value  # a JSON number (or a wrong type, which the golden reports)
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
    if not integer:
        return number
    if not number.is_integer():
        raise ValueError(f"{value!r} is not a whole number")
    return int(number)


# ---- turns ------------------------------------------------------------------------------------------------------


def parse_turns(value: Any) -> list[Turn] | None:
    """Turns from a file: a JSON array of turn objects (a string holding one, in CSV). Null keys are dropped
    (deepeval writes every key of a turn, usually null)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError) as err:
            raise ValueError(f"not a valid JSON array of turns ({_reason(err)})") from None
    if not isinstance(value, list):
        raise ValueError(f"expected an array of turns, got {_kind(value)}")
    turns: list[Turn] = []
    for i, raw in enumerate(value):
        if isinstance(raw, Turn):
            turns.append(raw)
            continue
        if not isinstance(raw, dict):
            raise ValueError(f"turn [{i}] is {_kind(raw)}, expected an object")
        fields = {k: v for k, v in raw.items() if v is not None}
        if "retrieval_context" in fields:
            fields["retrieval_context"] = load_retrieval_items(fields["retrieval_context"])
        try:
            turns.append(Turn.model_validate(fields))
        except TypeError as err:
            raise ValueError(f"turn [{i}]: {err}") from None
    return turns


def _dump_models(items: list[Any] | None) -> list[Any] | None:
    """A list of pydantic objects as JSON data (None when empty or unset)."""
    return [item.model_dump(mode="json") for item in items] if items else None


def dump_turns(turns: list[Turn] | None) -> list[dict[str, Any]] | None:
    """Turns with deepeval's key set (``role``, ``content``, ``user_id``, ``retrieval_context``, ``tools_called``,
    the three ``mcp_*`` lists and ``metadata``; unset ones as null)."""
    if turns is None:
        return None
    out: list[dict[str, Any]] = []
    for t in turns:
        record: dict[str, Any] = dict.fromkeys(_TURN_KEYS_WRITTEN)
        record.update(
            role=t.role,
            content=t.content,
            user_id=t.user_id,
            retrieval_context=dump_retrieval_context(t.retrieval_context),
            tools_called=dump_tools(t.tools_called) or None,
            mcp_tools_called=_dump_models(t.mcp_tools_called),
            mcp_resources_called=_dump_models(t.mcp_resources_called),
            mcp_prompts_called=_dump_models(t.mcp_prompts_called),
            metadata=t.metadata or None,
        )
        out.append(record)
    return out
