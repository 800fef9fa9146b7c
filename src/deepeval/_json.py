"""One JSON reader for text from outside (judge replies, run exports, cache rows): ``json.loads`` whose failure on
deeply nested input (Python's parser recurses and raises ``RecursionError``) is an ordinary ``ValueError``, so a
hostile or broken reply is invalid JSON like any other, never a bare ``RecursionError`` out of ``measure()``."""

from __future__ import annotations

import json
from typing import Any


class JSONTooDeepError(json.JSONDecodeError):
    """The text nests arrays / objects deeper than the parser can follow."""


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``.

    Raises:
        json.JSONDecodeError: not JSON, or (:class:`JSONTooDeepError`) nested too deeply to parse.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise JSONTooDeepError("JSON nested too deeply to parse", "", 0) from None
