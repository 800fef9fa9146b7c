"""``FieldDict``: a plain dict (JSON-ready, equal to the same dict) whose keys also read as attributes.

deepeval hands out pydantic objects where we keep plain data (``TestResult.turns``, ``metric.verdicts``); user code
written for it reads ``turn.role`` / ``verdict.verdict``. A dict subclass serves both without a second copy.
"""

from __future__ import annotations

from typing import Any


class FieldDict(dict):  # type: ignore[type-arg]
    """``d.key`` is ``d["key"]``; a missing key is an ``AttributeError`` (see :meth:`_missing`)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            return self._missing(name)

    def _missing(self, name: str) -> Any:
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")
