"""Judge-side copies of test cases whose text can always be encoded as UTF-8.

A Python ``str`` may hold lone surrogates (U+D800-U+DFFF): ``json.loads('"\\udcff"')`` or
``bytes.decode(errors="surrogateescape")`` produce them from scraped or mis-decoded data. They are not characters,
so strict UTF-8 cannot encode them and every judge path (prompt hashing, HTTP bodies, the embedded encoder) would
fail on them. Test cases accept them unchanged, so the user's data and results stay exactly as given; metrics
judge a copy in which each lone surrogate is U+FFFD (the replacement character, what a UTF-8 decoder shows for an
undecodable byte), which is the most any judge could be sent.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean_str(value: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", value)
    return value


#: containers nested deeper than this (or holding themselves) are returned as they are: only metadata can be shaped
#: so, and no judge is sent metadata
MAX_DEPTH = 100


def encodable(value: T) -> T:
    """``value`` with every lone surrogate in its strings (recursively through lists, tuples, dict keys and
    values, and pydantic models' fields) replaced by U+FFFD. Returns ``value`` itself when nothing changes;
    otherwise a copy (models via ``model_copy``), never mutating the original. A container that holds itself or
    lies deeper than :data:`MAX_DEPTH` is kept as it is (never a ``RecursionError``)."""
    return _encodable(value, 0, set())  # type: ignore[no-any-return]


def _encodable(value: Any, depth: int, path: set[int]) -> Any:
    if isinstance(value, str):
        return _clean_str(value)
    if not isinstance(value, (list, tuple, dict, BaseModel)) or depth >= MAX_DEPTH or id(value) in path:
        return value
    path.add(id(value))
    try:
        return _container(value, depth + 1, path)
    finally:
        path.discard(id(value))


def _container(value: Any, depth: int, path: set[int]) -> Any:
    out: Any
    if isinstance(value, list):
        items = [_encodable(v, depth, path) for v in value]
        out = items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    elif isinstance(value, tuple):
        items = [_encodable(v, depth, path) for v in value]
        out = type(value)(*items) if hasattr(value, "_fields") else tuple(items)
        out = out if any(a is not b for a, b in zip(items, value, strict=True)) else value
    elif isinstance(value, dict):
        pairs = [(_encodable(k, depth, path), _encodable(v, depth, path)) for k, v in value.items()]
        changed = any(
            k2 is not k or v2 is not v for (k2, v2), (k, v) in zip(pairs, value.items(), strict=True)
        )
        out = dict(pairs) if changed else value
    else:
        update = {}
        for name in type(value).model_fields:
            old = getattr(value, name, None)
            new = _encodable(old, depth, path)
            if new is not old:
                update[name] = new
        out = value.model_copy(update=update) if update else value
    return out
