"""Writing goldens as deepeval writes them: the same keys, columns, order and layout (JSON indented by 4 with
non-ASCII kept, one object per JSONL line, CSV with ``\\r\\n`` rows under the one CSV cell rule of
:mod:`deepeval._csv_cells`: a text cell starting with ``=``, ``+``, ``-``, ``@``, TAB or CR gets a leading ``'``, which
the loaders drop again).

Deliberate differences, each so that loading the file gives back the same goldens: ``token_cost`` and the token
counts are written (deepeval 4.3.1 leaves them empty); empty lists and objects stay ``[]``/``{}`` (deepeval writes
nothing); a list whose items hold the delimiter is written as a JSON array (see :mod:`deepeval.dataset._cells`);
``expected_labels`` is a last key/column (deepeval drops it); a CSV text cell a spreadsheet would run as a formula
is written with a leading ``'`` (deepeval writes it as it is).
"""

from __future__ import annotations

import json
from typing import Any

from deepeval._csv_cells import csv_lines
from deepeval.dataset import _cells
from deepeval.dataset.golden import ConversationalGolden, Expectations, Golden, Persona

SINGLE_TURN_KEYS = (
    "input",
    "actual_output",
    "expected_output",
    "retrieval_context",
    "context",
    "name",
    "comments",
    "source_file",
    "tools_called",
    "expected_tools",
    "token_cost",
    "input_token_count",
    "output_token_count",
    "additional_metadata",
    "custom_column_key_values",
    "expectations",
    "expected_labels",
)
MULTI_TURN_KEYS = (
    "scenario",
    "turns",
    "expected_outcome",
    "user_description",
    "persona",
    "context",
    "name",
    "comments",
    "additional_metadata",
    "custom_column_key_values",
    "expectations",
    "expected_labels",
)


def _expectations(e: Expectations | None) -> dict[str, Any] | None:
    return None if e is None else e.model_dump(mode="json", by_alias=False)


def _persona(p: Persona | None) -> dict[str, Any] | None:
    return None if p is None else p.model_dump(mode="json", by_alias=False, exclude_defaults=True)


def _jsonl_list(items: list[str] | None, delimiter: str) -> str | list[str] | None:
    """deepeval's JSONL holds single-turn context lists as one joined string; a list that would not survive the
    join stays a list (which the reader takes as it is)."""
    if items is None:
        return None
    joined = delimiter.join(items)
    return joined if _cells.split_cell(joined, delimiter) == items else items


def golden_record(g: Golden, fmt: str) -> dict[str, Any]:
    """The JSON/JSONL object for one golden (keys in deepeval's order)."""
    retrieval = _cells.dump_retrieval_context(g.retrieval_context)
    return {
        "input": g.input,
        "actual_output": g.actual_output,
        "expected_output": g.expected_output,
        "retrieval_context": _jsonl_list(retrieval, _cells.DELIMITER) if fmt == "jsonl" else retrieval,
        "context": _jsonl_list(g.context, _cells.DELIMITER) if fmt == "jsonl" else g.context,
        "name": g.name,
        "comments": g.comments,
        "source_file": g.source_file,
        "tools_called": _cells.dump_tools(g.tools_called),
        "expected_tools": _cells.dump_tools(g.expected_tools),
        "token_cost": g.token_cost,
        "input_token_count": g.input_token_count,
        "output_token_count": g.output_token_count,
        "additional_metadata": g.additional_metadata,
        "custom_column_key_values": g.custom_column_key_values,
        "expectations": _expectations(g.expectations),
        "expected_labels": g.expected_labels,
    }


def conversational_record(g: ConversationalGolden) -> dict[str, Any]:
    return {
        "scenario": g.scenario,
        "turns": _cells.dump_turns(g.turns),
        "expected_outcome": g.expected_outcome,
        "user_description": g.user_description,
        "persona": _persona(g.persona),
        "context": g.context,
        "name": g.name,
        "comments": g.comments,
        "additional_metadata": g.additional_metadata,
        "custom_column_key_values": g.custom_column_key_values,
        "expectations": _expectations(g.expectations),
        "expected_labels": g.expected_labels,
    }


def _json_cell(value: Any, *, compact: bool = False) -> str:
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":") if compact else None)


def _csv_cells(record: dict[str, Any]) -> list[Any]:
    """A JSON record as CSV cells: text as is, lists joined, objects as JSON (expectations compact, as deepeval's
    ``model_dump_json``), numbers by ``str``."""
    cells: list[Any] = []
    for key, value in record.items():
        if value is None:
            cells.append("")
        elif key in ("context", "retrieval_context"):
            cells.append(_cells.join_cell(value, _cells.DELIMITER))
        elif key == "expectations":
            cells.append(_json_cell(value, compact=True))
        elif isinstance(value, (dict, list)):
            cells.append(_json_cell(value))
        else:
            cells.append(value)
    return cells


def render(goldens: list[Golden] | list[ConversationalGolden], file_type: str) -> str:
    """The whole file text for ``goldens`` (all of one kind) in ``file_type``."""
    multi = bool(goldens) and isinstance(goldens[0], ConversationalGolden)
    records = [
        conversational_record(g) if isinstance(g, ConversationalGolden) else golden_record(g, file_type)
        for g in goldens
    ]
    if file_type == "json":
        return json.dumps(records, indent=4, ensure_ascii=False)
    if file_type == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    keys = [
        k for k in (MULTI_TURN_KEYS if multi else SINGLE_TURN_KEYS) if k != "persona"
    ]  # deepeval: no column
    for r in records:
        r.pop("persona", None)
    return "".join(csv_lines(keys, (_csv_cells(r) for r in records)))
