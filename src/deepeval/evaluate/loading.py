"""Read test cases from files for ``deepeval evaluate FILE``.

Formats (chosen by extension):

* ``.jsonl``: one JSON object per line (lines end at ``\n`` or ``\r\n`` only; blank lines ignored).
* ``.json``: a list of objects, or ``{"test_cases": [...]}``.
* ``.csv``: a header row; columns are test-case fields, each named once (nameless trailing columns must stay
  empty). List fields (``context``, ``retrieval_context``, ``tags``) hold a JSON array (``["a", "b"]``) or a single
  plain string (one item); ``metadata`` holds a JSON object; empty cells are absent fields. Cells may hold any text
  of any length (quoted line breaks, U+2028).

Files are UTF-8 (a BOM is allowed); ``~`` in the path is the home folder.

An object with ``turns`` becomes a :class:`ConversationalTestCase`, any other an :class:`LLMTestCase`. Field names
may be snake_case or camelCase. A key no test case (or deepeval golden) has is refused with the closest known key
(``actual_outptu``: did you mean ``actual_output``?), in a turn too: the constructors would ignore it, as
deepeval's do, and the misspelt field would be missing when the metric runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from deepeval import _records
from deepeval._files import user_path
from deepeval.errors import ConfigurationError
from deepeval.test_case import ConversationalTestCase, LLMTestCase

_LIST_FIELDS = {"context", "retrieval_context", "retrievalContext", "tags"}
_OBJECT_FIELDS = {"metadata"}
_NUMBER_FIELDS = {"token_cost", "tokenCost", "completion_time", "completionTime"}


#: keys of deepeval 4.3.1's goldens that our models do not declare (a goldens file deepeval wrote, with
#: ``actual_output`` filled in, is a file of test cases)
_DEEPEVAL_GOLDEN_KEYS = frozenset({"images_mapping", "imagesMapping", "multimodal"})


@functools.lru_cache(maxsize=1)
def _known_keys() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Keys a single-turn record, a conversational record and a turn may have: every name the test-case (and
    golden) constructors read, snake_case or camelCase. deepeval's constructors ignore any other key; a file we
    read refuses it, since a misspelt field would otherwise vanish and the row fail later on the missing one."""
    from deepeval.dataset.golden import ConversationalGolden, Golden
    from deepeval.test_case import Turn
    from deepeval.test_case.base import input_names

    single = input_names(LLMTestCase) | input_names(Golden) | _DEEPEVAL_GOLDEN_KEYS
    conversational = (
        input_names(ConversationalTestCase) | input_names(ConversationalGolden) | _DEEPEVAL_GOLDEN_KEYS
    )
    return frozenset(single), frozenset(conversational), frozenset(input_names(Turn))


def _check_keys(obj: dict[str, Any], known: frozenset[str], where: str, what: str) -> None:
    """Refuse a key no constructor reads, naming it and the closest known key.

    Raises:
        ConfigurationError: an unknown key.
    """
    import difflib

    for key in obj:
        if key in known:
            continue
        close = difflib.get_close_matches(str(key), sorted(known), n=1, cutoff=0.6)
        hint = (
            f"; did you mean {close[0]!r}?"
            if close
            else f"; known keys: {', '.join(sorted(k for k in known if '_' in k or k.islower()))}"
        )
        raise ConfigurationError(f"{where}: unknown {what} key {key!r}{hint}")


def _build(obj: Any, where: str) -> LLMTestCase | ConversationalTestCase:
    if not isinstance(obj, dict):
        raise ConfigurationError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    single, conversational, turn_keys = _known_keys()
    if "turns" in obj:
        _check_keys(obj, conversational, where, "test-case")
        turns = obj["turns"]
        for i, turn in enumerate(turns if isinstance(turns, list) else []):
            if isinstance(turn, dict):
                _check_keys(turn, turn_keys, f"{where}: turns[{i}]", "turn")
    else:
        _check_keys(obj, single, where, "test-case")
    try:
        return ConversationalTestCase(**obj) if "turns" in obj else LLMTestCase(**obj)
    except TypeError as err:
        raise ConfigurationError(f"{where}: {err}") from None


def _json(text: str, where: str, what: str = "not valid JSON") -> Any:
    """``text`` read under the shared JSON rules (:func:`deepeval._records.loads_json`: bad syntax, a duplicate
    key, an integer too long to read, nesting too deep); any failure names ``where``."""
    try:
        return _records.loads_json(text)
    except _records.RecordTextError as err:
        reason = err.reason.removeprefix("not valid JSON (").removesuffix(")")
        raise ConfigurationError(f"{where}: {what} ({reason})") from None


def _csv_value(column: str, raw: str, where: str) -> Any:
    if column in _LIST_FIELDS:
        if raw.strip().startswith("["):
            return _json(raw.strip(), where, f"column {column!r} is not a valid JSON array")
        return [raw]
    if column in _OBJECT_FIELDS or column == "turns":
        return _json(raw, where, f"column {column!r} is not valid JSON")
    if column in _NUMBER_FIELDS:
        try:
            return float(raw)
        except ValueError:
            raise ConfigurationError(f"{where}: column {column!r} must be a number, got {raw!r}") from None
    return raw


def _read_text(p: Path) -> str:
    """The file as text: UTF-8 (a leading BOM is dropped).

    Raises:
        ConfigurationError: the file cannot be read, or is not UTF-8 (naming the line and byte).
    """
    try:
        data = p.read_bytes()
    except OSError as err:
        raise ConfigurationError(f"{p}: cannot read the file ({err.strerror or err})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise ConfigurationError(
            f"{p}:{line}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start}); save the file as "
            "UTF-8 (for example: iconv -f latin1 -t utf-8)"
        ) from None


_Case = LLMTestCase | ConversationalTestCase


def _keep(cases: list[_Case], make: Callable[[], _Case], invalid: list[str] | None) -> None:
    """Append ``make()`` to ``cases``; with an ``invalid`` list, a record that fails goes there as its message
    (file and line or index named) instead of stopping the load."""
    try:
        cases.append(make())
    except ConfigurationError as err:
        if invalid is None:
            raise
        invalid.append(str(err))


def _jsonl_case(line: str, where: str) -> _Case:
    return _build(_json(line, where), where)


def _jsonl(p: Path, text: str, invalid: list[str] | None = None) -> list[_Case]:
    cases: list[_Case] = []
    # Lines end at "\n" only (and "\r\n"): str.splitlines() would also split at U+2028, U+0085 and other
    # characters that JSON allows raw inside a string.
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        where = f"{p}:{n}"
        _keep(cases, functools.partial(_jsonl_case, line, where), invalid)
    return cases


def _csv(p: Path, text: str, invalid: list[str] | None = None) -> list[_Case]:
    """The test cases of a CSV file under the shared reading rules (:func:`deepeval._records.csv_rows`)."""
    try:
        return _csv_rows(p, _records.csv_rows(text), invalid)
    except _records.RecordTextError as err:
        raise ConfigurationError(f"{p}:{err.line}: {err.reason}") from None


def _csv_rows(
    p: Path, rows: Iterator[tuple[int, list[str]]], invalid: list[str] | None = None
) -> list[_Case]:
    _, header = next(rows, (0, []))
    if not header:
        raise ConfigurationError(f"{p}: the CSV file has no header row")
    seen: set[str] = set()
    for column in header:
        if column == "":  # trailing separators of a spreadsheet export: nameless, and must stay empty
            continue
        if column in seen:
            raise ConfigurationError(
                f"{p}:1: column {column!r} appears twice in the header; which one holds the value would be a "
                "guess, so rename or remove one"
            )
        seen.add(column)
    cases: list[_Case] = []
    for line, row in rows:
        _keep(cases, functools.partial(_csv_case, header, row, f"{p}:{line}"), invalid)
    return cases


def _csv_case(header: list[str], row: list[str], where: str) -> _Case:
    nameless = next(
        (i for i, (k, v) in enumerate(zip(header, row, strict=True)) if k == "" and v != ""), None
    )
    if nameless is not None:
        raise ConfigurationError(
            f"{where}: cell {nameless + 1} has a value but its column has no header name"
        )
    obj = {k: _csv_value(k, v, where) for k, v in zip(header, row, strict=True) if v != ""}
    return _build(obj, where)


def load_test_cases(path: str | Path, *, invalid: list[str] | None = None) -> list[_Case]:
    """All test cases in ``path`` (see module docstring), in file order.

    With ``invalid`` (a list), a record that is not a valid test case (a bad JSONL line, JSON item or CSV row) is
    skipped and its message appended there, naming its line or index; problems of the whole file still raise.

    Raises:
        ConfigurationError: missing or unreadable file, not UTF-8, unknown extension, bad JSON/CSV (also JSON
            nested too deeply to read, or a CSV header naming a column twice) or an invalid test case; the message
            names the file and the line (JSONL/CSV) or item index (JSON). Nothing is returned on error.
    """
    p = user_path(path)
    if not p.is_file():
        what = "not a regular file" if p.exists() else "no such file"  # a FIFO or /dev/zero exists
        raise ConfigurationError(f"{p}: {what}")
    suffix = p.suffix.lower()
    if suffix not in (".jsonl", ".json", ".csv"):
        raise ConfigurationError(f"{p}: unknown file type {suffix!r}; use .jsonl, .json or .csv")
    text = _read_text(p)
    cases: list[_Case] = []
    if suffix == ".jsonl":
        cases = _jsonl(p, text, invalid)
    elif suffix == ".json":
        data = _json(text, str(p))
        if isinstance(data, dict) and isinstance(data.get("test_cases"), list):
            data = data["test_cases"]
        if not isinstance(data, list):
            raise ConfigurationError(f'{p}: expected a list of test cases or {{"test_cases": [...]}}')
        for i, obj in enumerate(data):
            _keep(cases, functools.partial(_build, obj, f"{p}[{i}]"), invalid)
    else:
        cases = _csv(p, text, invalid)
    if not cases:
        skipped = f" ({len(invalid)} invalid skipped; first: {invalid[0]})" if invalid else ""
        raise ConfigurationError(f"{p}: no test cases in the file{skipped}")
    return cases
