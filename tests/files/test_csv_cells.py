"""The one CSV cell rule (deepeval._csv_cells): formula cells neutralised, quoting, and an exact inverse."""

from __future__ import annotations

import csv
import io
import itertools

import pytest

from deepeval._csv_cells import FORMULA_STARTS, csv_line, escape_cell, unescape_cell
from deepeval._records import csv_rows

ODD = ["", "'", "''", "a,b", 'say "hi"', "x\ry", "x\r\ny", "-", "'-", "''=", "plain", "'tis", "é=", " =1"]
TEXTS = ODD + [c + "rest" for c in FORMULA_STARTS] + ["'" + c for c in FORMULA_STARTS]


@pytest.mark.parametrize("start", list(FORMULA_STARTS))
def test_every_formula_start_gets_one_leading_quote(start: str) -> None:
    assert escape_cell(start + "cmd") == "'" + start + "cmd"
    assert escape_cell("'" + start + "cmd") == "''" + start + "cmd"


def test_other_text_numbers_and_none_are_written_as_they_are() -> None:
    assert [escape_cell(v) for v in ("'tis", "a=b", " =1", None, -0.5, 3, True)] == [
        "'tis",
        "a=b",
        " =1",
        "",
        "-0.5",
        "3",
        "True",
    ]


def test_cells_with_separator_quote_or_line_break_are_quoted_whatever_the_line_end() -> None:
    assert csv_line(["a,b", 'q"', "c\rd", "e\nf", "g"], line_end="\n") == '"a,b","q""","c\rd","e\nf",g\n'


def test_escape_then_read_then_unescape_gives_every_text_back() -> None:
    rows = [list(pair) for pair in itertools.product(TEXTS, repeat=2)]
    text = csv_line(["h1", "h2"]) + "".join(csv_line(r, line_end="\n") for r in rows)
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert [[unescape_cell(c) for c in r] for r in parsed[1:]] == rows
    assert [cells for _, cells in csv_rows(text)][1:] == rows  # the shared loader unescapes
