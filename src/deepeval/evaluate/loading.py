"""Read test cases from files for ``deepeval evaluate FILE``.

Formats (chosen by extension):

* ``.jsonl``: one JSON object per line (blank lines ignored).
* ``.json``: a list of objects, or ``{"test_cases": [...]}``.
* ``.csv``: a header row; columns are test-case fields. List fields (``context``, ``retrieval_context``, ``tags``)
  hold a JSON array (``["a", "b"]``) or a single plain string (one item); ``metadata`` holds a JSON object; empty
  cells are absent fields.

An object with ``turns`` becomes a :class:`ConversationalTestCase`, any other an :class:`LLMTestCase`. Field names
may be snake_case or camelCase.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from deepeval.errors import ConfigurationError
from deepeval.test_case import ConversationalTestCase, LLMTestCase

_LIST_FIELDS = {"context", "retrieval_context", "retrievalContext", "tags"}
_OBJECT_FIELDS = {"metadata"}
_NUMBER_FIELDS = {"token_cost", "tokenCost", "completion_time", "completionTime"}


def _build(obj: Any, where: str) -> LLMTestCase | ConversationalTestCase:
    if not isinstance(obj, dict):
        raise ConfigurationError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    try:
        return ConversationalTestCase(**obj) if "turns" in obj else LLMTestCase(**obj)
    except TypeError as err:
        raise ConfigurationError(f"{where}: {err}") from None


def _csv_value(column: str, raw: str, where: str) -> Any:
    if column in _LIST_FIELDS:
        text = raw.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except ValueError as err:
                raise ConfigurationError(
                    f"{where}: column {column!r} is not a valid JSON array ({err})"
                ) from None
            return value
        return [raw]
    if column in _OBJECT_FIELDS or column == "turns":
        try:
            return json.loads(raw)
        except ValueError as err:
            raise ConfigurationError(f"{where}: column {column!r} is not valid JSON ({err})") from None
    if column in _NUMBER_FIELDS:
        try:
            return float(raw)
        except ValueError:
            raise ConfigurationError(f"{where}: column {column!r} must be a number, got {raw!r}") from None
    return raw


def load_test_cases(path: str | Path) -> list[LLMTestCase | ConversationalTestCase]:
    """All test cases in ``path`` (see module docstring), in file order.

    Raises:
        ConfigurationError: missing file, unknown extension, bad JSON/CSV or an invalid test case; the message
            names the file and the line (JSONL/CSV) or item index (JSON). Nothing is returned on error.
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigurationError(f"{p}: no such file")
    suffix = p.suffix.lower()
    text = p.read_text(encoding="utf-8-sig")
    cases: list[LLMTestCase | ConversationalTestCase] = []
    if suffix == ".jsonl":
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as err:
                raise ConfigurationError(f"{p}:{n}: not valid JSON ({err})") from None
            cases.append(_build(obj, f"{p}:{n}"))
    elif suffix == ".json":
        try:
            data = json.loads(text)
        except ValueError as err:
            raise ConfigurationError(f"{p}: not valid JSON ({err})") from None
        if isinstance(data, dict) and isinstance(data.get("test_cases"), list):
            data = data["test_cases"]
        if not isinstance(data, list):
            raise ConfigurationError(f'{p}: expected a list of test cases or {{"test_cases": [...]}}')
        cases = [_build(obj, f"{p}[{i}]") for i, obj in enumerate(data)]
    elif suffix == ".csv":
        reader = csv.DictReader(text.splitlines())
        if not reader.fieldnames:
            raise ConfigurationError(f"{p}: the CSV file has no header row")
        for n, row in enumerate(reader, start=2):
            where = f"{p}:{n}"
            if None in row:
                raise ConfigurationError(f"{where}: more cells than header columns")
            obj = {k: _csv_value(k, v, where) for k, v in row.items() if v not in (None, "")}
            cases.append(_build(obj, where))
    else:
        raise ConfigurationError(f"{p}: unknown file type {suffix!r}; use .jsonl, .json or .csv")
    if not cases:
        raise ConfigurationError(f"{p}: no test cases in the file")
    return cases
