"""Reading dataset files into goldens and test cases, all or nothing.

Each format yields :class:`Record` objects (the raw values of one CSV row, JSON array item or JSONL line, with where
it came from); :func:`build_all` turns every record into an object and only then returns, so a bad record raises
before the dataset has been touched. Every error is a :class:`~deepeval.errors.DatasetFileError` naming the file,
the row or item, its line and the field (by the key or column name the caller gave).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from deepeval import _records
from deepeval.dataset import _cells
from deepeval.errors import DatasetFileError
from deepeval.test_case.base import describe_validation_error

Format = Literal["csv", "json", "jsonl"]


@dataclass(frozen=True)
class Record:
    values: dict[str, Any]
    number: int  # 1-based row (CSV, header excluded), item (JSON) or non-blank line count (JSONL)
    line: int


@dataclass
class Source:
    """One file being read: its path, its format and what a location looks like in messages."""

    path: str
    fmt: Format
    records: list[Record] = field(default_factory=list)
    columns: list[str] | None = None  # CSV header

    def where(self, record: Record | None) -> str:
        if record is None:
            return self.path
        if self.fmt == "csv":
            return f"{self.path}, row {record.number} (line {record.line})"
        if self.fmt == "json":
            return f"{self.path}, item {record.number} (line {record.line})"
        return f"{self.path}, line {record.line}"

    def error(self, message: str, record: Record | None = None, key: str | None = None) -> DatasetFileError:
        what = f", field {key!r}" if key is not None else ""
        return DatasetFileError(
            f"{self.where(record)}{what}: {message}",
            path=self.path,
            line=record.line if record else None,
            row=record.number if record else None,
            field=key,
        )


# ---- reading the text -------------------------------------------------------------------------------------------


def _read_text(path: str, encoding: str) -> str:
    p = Path(path)
    if not p.is_file():
        if p.exists():
            raise DatasetFileError(f"{path}: is not a file", path=path)
        raise FileNotFoundError(f"The file {path} was not found.")
    data = p.read_bytes()
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise DatasetFileError(
            f"{path}, line {line}: not valid {encoding} (byte {err.object[err.start : err.start + 1]!r} at offset "
            f"{err.start}); save the file as UTF-8 or pass encoding_type= with its encoding",
            path=path,
            line=line,
        ) from None
    except LookupError:
        raise DatasetFileError(f"{path}: unknown encoding {encoding!r}", path=path) from None
    if not text.strip():
        raise DatasetFileError(f"{path}: the file is empty", path=path)
    return text


def _kind(value: object) -> str:
    return _cells._kind(value)


def read_csv(path: str, encoding: str) -> Source:
    """The rows of a CSV file under the shared reading rules (:mod:`deepeval._records`): an unterminated quote or a
    row whose cell count differs from the header's is an error naming its line; a row of empty cells is kept (it is
    checked like any other, so a missing ``input`` names the line)."""
    src = Source(path, "csv")
    text = _read_text(path, encoding)
    rows = _records.csv_rows(text)
    try:
        _, header = next(rows)
        names = [h.strip() for h in header]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise src.error(f"the header names column {dupes[0]!r} more than once")
        src.columns = names
        for line, row in rows:
            src.records.append(Record(dict(zip(names, row, strict=True)), len(src.records) + 1, line))
    except StopIteration:
        raise src.error("the CSV file has no header row") from None
    except _records.RecordTextError as err:
        if src.columns is None or err.line is None:  # the header itself
            raise DatasetFileError(
                f"{path}, line {err.line}: {err.reason}", path=path, line=err.line
            ) from None
        raise src.error(err.reason, Record({}, len(src.records) + 1, err.line)) from None
    return src


def _items(text: str, decoder: json.JSONDecoder) -> Iterator[tuple[int, Any]]:
    """``(line, value)`` for each item of the JSON array ``text``, read one by one with ``decoder``."""
    pos = text.index("[") + 1
    line, counted = 1, 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            value, pos = decoder.raw_decode(text, pos)
        except RecursionError:
            raise _records.RecordTextError("nested too deeply to read", line) from None
        except ValueError as err:
            reason = err.reason if isinstance(err, _records.RecordTextError) else str(err)
            raise _records.RecordTextError(reason, line) from None
        yield line, value


def read_json(path: str, encoding: str) -> Source:
    src = Source(path, "json")
    text = _read_text(path, encoding)
    try:
        whole = _records.loads_json(text)
    except _records.RecordTextError as err:
        if err.line is not None:
            where = f"line {err.line}, column {err.column}"
            raise DatasetFileError(f"{path}, {where}: {err.reason}", path=path, line=err.line) from None
        raise _located(src, text, err) from None
    if not isinstance(whole, list):
        raise src.error(f"expected a JSON array of objects, got {_kind(whole)}")
    # The text is valid: walk the array again to learn the line each item starts on.
    for number, (line, value) in enumerate(_items(text, json.JSONDecoder()), start=1):
        record = Record(value if isinstance(value, dict) else {}, number, line)
        if not isinstance(value, dict):
            raise src.error(f"is {_kind(value)}, expected an object", record)
        src.records.append(record)
    return src


def _located(src: Source, text: str, err: _records.RecordTextError) -> DatasetFileError:
    """The error for valid JSON syntax that breaks a rule inside one item (a duplicate key, an integer too long to
    read), naming the line that item starts on when the text is an array."""
    if text.lstrip().startswith("["):
        hooked = json.JSONDecoder(object_pairs_hook=_records.no_duplicate_keys)
        try:
            for _ in _items(text, hooked):
                pass
        except _records.RecordTextError as located:
            return DatasetFileError(
                f"{src.path}, line {located.line}: not valid JSON ({located.reason})",
                path=src.path,
                line=located.line,
            )
    return src.error(err.reason)


def read_jsonl(path: str, encoding: str) -> Source:
    src = Source(path, "jsonl")
    text = _read_text(path, encoding)
    number = 0
    # Lines end at "\n" (or "\r\n") only: str.splitlines() would also split at U+2028, U+0085 and other characters
    # that JSON allows raw inside a string.
    for line_no, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        number += 1
        record = Record({}, number, line_no)
        try:
            value = _records.loads_json(line)
        except _records.RecordTextError as err:
            column = f", column {err.column}" if err.column is not None else ""
            raise src.error(f"{err.reason}{column}", record) from None
        if not isinstance(value, dict):
            raise src.error(f"is {_kind(value)}, expected an object", record)
        record.values.update(value)
        src.records.append(record)
    return src


READERS: dict[Format, Callable[[str, str], Source]] = {
    "csv": read_csv,
    "json": read_json,
    "jsonl": read_jsonl,
}


# ---- records to objects -----------------------------------------------------------------------------------------

#: turns a raw value (a CSV cell, a JSON value) into the field's value; raises ValueError/TypeError with a reason
Parser = Callable[[Any], Any]


@dataclass(frozen=True)
class FieldSpec:
    """One field of the object being built: the key or column it is read from and how its value is parsed."""

    name: str
    key: str | None
    parse: Parser


def text_value(fmt: Format) -> Parser:
    # a CSV cell cannot tell an empty string from no value; an empty cell is None
    return (lambda v: v if v != "" else None) if fmt == "csv" else (lambda v: v)


def list_value(fmt: Format, delimiter: str, *, retrieval: bool = False) -> Parser:
    split = delimiter if fmt != "json" else None

    def parse(v: Any) -> Any:
        if fmt == "csv" and v == "":
            return None
        items = _cells.parse_string_list(v, split)
        return _cells.load_retrieval_items(items) if retrieval else items

    return parse


def tools_value(fmt: Format, delimiter: str) -> Parser:
    split = delimiter if fmt == "csv" else None
    return lambda v: None if (fmt == "csv" and v == "") else _cells.parse_tools(v, split)


def number_value(fmt: Format, *, integer: bool) -> Parser:
    return lambda v: None if (fmt == "csv" and v == "") else _cells.parse_number(v, integer=integer)


def object_value(fmt: Format, *, python_literal: bool = False) -> Parser:
    return lambda v: (
        None if (fmt == "csv" and v == "") else _cells.parse_object(v, python_literal=python_literal)
    )


def turns_value(fmt: Format) -> Parser:
    return lambda v: None if (fmt == "csv" and v == "") else _cells.parse_turns(v)


def _field_of(err: ValidationError, specs: list[FieldSpec]) -> str | None:
    names = {s.name: s.key for s in specs}
    for e in err.errors():
        if e["loc"] and e["loc"][0] in names:
            return names[str(e["loc"][0])]
    return None


def build(
    src: Source,
    record: Record,
    model: type[BaseModel],
    specs: list[FieldSpec],
    extra: dict[str, Any] | None = None,
) -> Any:
    """One object from one record; any problem raises naming the record and the key it came from."""
    kwargs: dict[str, Any] = dict(extra or {})
    for spec in specs:
        if spec.key is None or spec.key not in record.values:
            continue
        raw = record.values[spec.key]
        try:
            value = spec.parse(raw)
        except (ValueError, TypeError) as err:
            raise src.error(str(err), record, spec.key) from None
        if value is not None:
            kwargs[spec.name] = value
    try:
        return model.__pydantic_validator__.validate_python(kwargs)
    except ValidationError as err:
        key = _field_of(err, specs)
        raise src.error(describe_validation_error(err, model.__name__), record, key) from None
