"""Reading dataset files into goldens and test cases, all or nothing.

Each format yields :class:`Record` objects (the raw values of one CSV row, JSON array item or JSONL line, with where
it came from); :func:`build_all` turns every record into an object and only then returns, so a bad record raises
before the dataset has been touched. Every error is a :class:`~deepeval.errors.DatasetFileError` naming the file,
the row or item, its line and the field (by the key or column name the caller gave).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from deepeval.dataset import _cells
from deepeval.errors import DatasetFileError
from deepeval.test_case._base import describe_validation_error

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


#: the csv module refuses cells over 128 KiB by default; a long retrieved document is a normal cell
_FIELD_LIMIT = 2**31 - 1


def read_csv(path: str, encoding: str) -> Source:
    src = Source(path, "csv")
    text = _read_text(path, encoding)
    reader = csv.reader(io.StringIO(text, newline=""))
    previous_limit = csv.field_size_limit(_FIELD_LIMIT)
    try:
        header = next(reader)
        names = [h.strip() for h in header]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise src.error(f"the header names column {dupes[0]!r} more than once")
        src.columns = names
        start = reader.line_num + 1
        number = 0
        for row in reader:
            number += 1
            record = Record({}, number, start)
            start = reader.line_num + 1
            if not any(cell.strip() for cell in row):
                number -= 1  # a blank line is not a row
                continue
            if len(row) > len(names):
                raise src.error(f"{len(row)} cells but the header has {len(names)} columns", record)
            record.values.update(zip(names, row, strict=False))  # a short row: the rest are empty
            src.records.append(record)
    except csv.Error as err:
        raise src.error(f"line {reader.line_num}: not valid CSV ({err})") from None
    finally:
        csv.field_size_limit(previous_limit)
    return src


def _json_error(src: Source, err: json.JSONDecodeError) -> DatasetFileError:
    return DatasetFileError(
        f"{src.path}, line {err.lineno}, column {err.colno}: not valid JSON ({err.msg})",
        path=src.path,
        line=err.lineno,
    )


def read_json(path: str, encoding: str) -> Source:
    src = Source(path, "json")
    text = _read_text(path, encoding)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as err:
        raise _json_error(src, err) from None
    except RecursionError:
        raise src.error("not valid JSON (nested too deeply to read)") from None
    if not isinstance(whole, list):
        raise src.error(f"expected a JSON array of objects, got {_kind(whole)}")
    # The text is valid: walk the array again to learn the line each item starts on.
    decoder = json.JSONDecoder()
    pos = text.index("[") + 1
    line, counted = 1, 0
    for number in range(1, len(whole) + 1):
        while text[pos] in " \t\r\n,":
            pos += 1
        line += text.count("\n", counted, pos)
        counted = pos
        value, pos = decoder.raw_decode(text, pos)
        record = Record(value if isinstance(value, dict) else {}, number, line)
        if not isinstance(value, dict):
            raise src.error(f"is {_kind(value)}, expected an object", record)
        src.records.append(record)
    return src


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
            value = json.loads(line)
        except json.JSONDecodeError as err:
            raise src.error(f"not valid JSON ({err.msg}, column {err.colno})", record) from None
        except RecursionError:
            raise src.error("not valid JSON (nested too deeply to read)", record) from None
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
