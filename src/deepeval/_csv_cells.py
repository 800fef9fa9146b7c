"""The one cell rule for every CSV file we write, and its inverse for every CSV file we read.

Writers: :meth:`EvaluationResult.to_csv <deepeval.evaluate.results.EvaluationResult.to_csv>` (and ``deepeval
evaluate --csv``), ``EvaluationDataset.save_as(..., "csv")``. Readers: every CSV loader (:mod:`deepeval._records`,
used by the dataset loaders and ``deepeval evaluate FILE.csv``).

* **Formula cells are neutralised** (OWASP's advice on CSV injection): a spreadsheet runs a cell that starts with
  ``=``, ``+``, ``-`` or ``@`` (or with TAB, CR, LF or NUL before one, or their full-width forms ``＝ ＋ － ＠``) as a
  formula, so such a text cell is written with one ``'`` in front, which spreadsheets show as a text marker and do
  not display. A text cell that already starts with ``'``\\ s followed by one of those characters gets one more
  ``'``, so the rule can be undone exactly.
* **Quoting**: a cell holding a comma, a double quote, a CR or a LF is written between double quotes (inner quotes
  doubled), whatever line end the file uses, so a bare CR in a name can never end a row.
* **Reading back** (:func:`unescape_cell`): one leading ``'`` is dropped from a cell that starts with ``'``\\ s and
  then one of those characters, so our own files load back to the values written. A hand-made CSV cell such as
  ``'=x`` therefore loads as ``=x``.
* Numbers, booleans and ``None`` (an empty cell) are written as they are: only text is escaped, so a score of
  ``-0.5`` stays a number while the text ``-0.5`` is written ``'-0.5``.

What a user sees: in Excel, LibreOffice or Google Sheets such a cell shows its text (``=SUM(A1)`` as text, not a
result); in a text editor, pandas or ``csv.reader`` the cell starts with ``'``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

#: the first characters that make a spreadsheet read a cell as a formula (ASCII and full-width forms), and the
#: control characters spreadsheets skip before one
FORMULA_STARTS = "=+-@\t\r\n\x00\uff1d\uff0b\uff0d\uff20"
_ESCAPED = re.compile(f"'*[{re.escape(FORMULA_STARTS)}]")
_UNESCAPE = re.compile(f"'+[{re.escape(FORMULA_STARTS)}]")
_NEEDS_QUOTES = re.compile(r'[,"\r\n]')


def escape_cell(value: Any) -> str:
    """The cell text of ``value``: ``""`` for None, ``str()`` for numbers and booleans, text with the formula
    rule applied (see the module docstring). Not yet quoted: see :func:`csv_line`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return str(value)
    return "'" + value if _ESCAPED.match(value) else value


def unescape_cell(text: str) -> str:
    """The inverse of :func:`escape_cell` for a text cell: one leading ``'`` dropped when what follows is ``'``\\ s
    and then a formula character; every other cell unchanged."""
    return text[1:] if _UNESCAPE.match(text) else text


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if _NEEDS_QUOTES.search(text) else text


def csv_line(cells: Iterable[Any], line_end: str = "\r\n") -> str:
    """One CSV record: every cell escaped (:func:`escape_cell`) and quoted when it must be, comma-separated."""
    return ",".join(_quoted(escape_cell(c)) for c in cells) + line_end


def csv_lines(header: Iterable[str], rows: Iterable[Iterable[Any]], line_end: str = "\r\n") -> Iterator[str]:
    """The header line, then one line per row (for :func:`deepeval._files.write_chunks_atomic`)."""
    yield csv_line(header, line_end)
    for row in rows:
        yield csv_line(row, line_end)
