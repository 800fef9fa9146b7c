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


def encodable(value: T) -> T:
    """``value`` with every lone surrogate in its strings (recursively through lists, tuples, dict keys and
    values, and pydantic models' fields) replaced by U+FFFD. Returns ``value`` itself when nothing changes;
    otherwise a copy (models via ``model_copy``), never mutating the original."""
    out: Any
    if isinstance(value, str):
        out = _clean_str(value)
    elif isinstance(value, list):
        items = [encodable(v) for v in value]
        out = items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    elif isinstance(value, tuple):
        items = [encodable(v) for v in value]
        out = type(value)(*items) if hasattr(value, "_fields") else tuple(items)
        out = out if any(a is not b for a, b in zip(items, value, strict=True)) else value
    elif isinstance(value, dict):
        pairs = [(encodable(k), encodable(v)) for k, v in value.items()]
        changed = any(
            k2 is not k or v2 is not v for (k2, v2), (k, v) in zip(pairs, value.items(), strict=True)
        )
        out = dict(pairs) if changed else value
    elif isinstance(value, BaseModel):
        update = {}
        for name in type(value).model_fields:
            old = getattr(value, name, None)
            new = encodable(old)
            if new is not old:
                update[name] = new
        out = value.model_copy(update=update) if update else value
    else:
        out = value
    return out  # type: ignore[no-any-return]
