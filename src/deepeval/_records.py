"""The rules for reading records out of CSV and JSON text, shared by every file loader (``deepeval evaluate``'s
:mod:`deepeval.evaluate.loading` and the dataset's :mod:`deepeval.dataset._read`), so a file is read the same way
wherever it is loaded. Each loader turns a :class:`RecordTextError` into its own error type with the file name.

* CSV: a quote that is never closed (it would pull the rest of the file into one cell), or any other malformed
  quoting, is an error naming the line where the record starts; every row has exactly as many cells as the header
  (a short row is as likely a lost separator as a row with one too many); a line with no cells at all is not a row,
  but a row of empty cells (``,``) is a row. Every cell after the header goes through
  :func:`deepeval._csv_cells.unescape_cell`, the inverse of the formula rule our CSV writers apply, so a cell written
  ``'=x`` reads back as ``=x``.
* JSON: a key given twice in one object is an error (which value was meant would be a guess); so is an integer
  too long for Python to read, or nesting too deep for the parser, each naming the line.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Iterator
from typing import Any

from deepeval._csv_cells import unescape_cell

# A CSV cell may be longer than the csv module's default limit (131,072 characters): long outputs and retrieved
# documents are normal content. The limit is a C long.
_CSV_FIELD_LIMIT = min(sys.maxsize, 2**31 - 1)


class RecordTextError(ValueError):
    """The text breaks a reading rule; ``line`` (1-based, where known) is where the offending record starts."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


def csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """``(line, cells)`` for the header and then each row of ``text``, ``line`` being where the record starts; the
    cells of every row after the header are unescaped (:func:`deepeval._csv_cells.unescape_cell`).

    Raises:
        RecordTextError: an unterminated quoted field, other malformed quoting, or a row whose cell count differs
            from the header's.
    """
    previous = csv.field_size_limit(_CSV_FIELD_LIMIT)
    try:
        # newline="": the csv module sees line ends as written, so quoted cells keep theirs, and U+2028 / U+0085
        # inside a cell are kept (they are not line ends in CSV). strict: an unclosed quote at the end of the
        # file is an error rather than a last cell holding everything after it.
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        start, width = 1, None
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                if "unexpected end of data" in str(err):
                    raise RecordTextError(
                        "unterminated quoted field: the '\"' opened on this line is never closed, so the rest of "
                        "the file would be read as one cell",
                        start,
                    ) from None
                raise RecordTextError(f"not valid CSV ({err})", reader.line_num) from None
            line, start = start, reader.line_num + 1
            if not row:
                continue  # a line with nothing on it is not a row
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise RecordTextError(f"{len(row)} cells but the header has {width} columns", line)
            else:
                row = [unescape_cell(cell) for cell in row]
            yield line, row
    finally:
        csv.field_size_limit(previous)


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise RecordTextError(
                f"key {key!r} appears twice in one object; which value was meant would be a guess"
            )
        obj[key] = value
    return obj


def loads_json(text: str) -> Any:
    """``json.loads(text)`` under the shared rules.

    Raises:
        RecordTextError: bad syntax (with line and column), a duplicate key, an integer too long to read, or
            nesting too deep to read.
    """
    try:
        return json.loads(text, object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as err:
        raise RecordTextError(f"not valid JSON ({err.msg})", err.lineno, err.colno) from None
    except RecordTextError as err:
        raise RecordTextError(f"not valid JSON ({err.reason})") from None
    except RecursionError:
        raise RecordTextError("not valid JSON (nested too deeply to read)") from None
    except ValueError as err:  # an integer longer than sys.get_int_max_str_digits()
        raise RecordTextError(f"not valid JSON ({err})") from None
