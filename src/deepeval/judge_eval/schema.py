"""Reading a labelled judge set (JSONL, the schema of ``training/blind/SCHEMA.md``; documented in
``docs/judge_eval.md``): every line is checked, and the first problem raises :class:`JudgeSetError` naming the file,
the line and the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deepeval.errors import DeepEvalError

#: metric name -> (positive label, negative label(s)) of one judged unit
LABELS: dict[str, tuple[str, ...]] = {
    "answer_relevancy": ("relevant", "irrelevant"),
    "contextual_relevancy": ("relevant", "irrelevant"),
    "knowledge_retention": ("forgets", "keeps"),
    "claim_support": ("supported", "unsupported", "contradicted"),
    "fact_stated": ("stated", "not_stated", "contradicted"),
}
METRICS = (*LABELS, "memory_grade")
ROLES = ("user", "assistant")


class JudgeSetError(DeepEvalError, ValueError):
    """A labelled set that cannot be read: the message names the file, the line (1-based) and the field."""


@dataclass
class Item:
    """One labelled item: its line number, its ``id``, its ``tags`` and the whole JSON object."""

    line: int
    id: str
    tags: list[str]
    data: dict[str, Any] = field(repr=False)


class _Line:
    """Field checks of one line; every failure raises :class:`JudgeSetError` with file, line and field."""

    def __init__(self, path: Path, line: int, obj: dict[str, Any]) -> None:
        self.path, self.line, self.obj = path, line, obj

    def fail(self, where: str, what: str) -> JudgeSetError:
        return JudgeSetError(f"{self.path}:{self.line}: field {where!r}: {what}")

    def text(self, obj: dict[str, Any], name: str, where: str, *, blank: bool = False) -> str:
        value = obj.get(name)
        if not isinstance(value, str):
            raise self.fail(where, f"must be a string, got {_kind(value)}")
        if not blank and not value.strip():
            raise self.fail(where, "must not be empty")
        return value

    def items(self, obj: dict[str, Any], name: str, where: str) -> list[dict[str, Any]]:
        value = obj.get(name)
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"must be a non-empty list, got {_kind(value)}")
        for i, entry in enumerate(value):
            if not isinstance(entry, dict):
                raise self.fail(f"{where}[{i}]", f"must be an object, got {_kind(entry)}")
        return value

    def tags(self, obj: dict[str, Any], where: str) -> list[str]:
        value = obj.get("tags", [])
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise self.fail(where, "must be a list of strings")
        return list(value)

    def label(self, obj: dict[str, Any], where: str, allowed: tuple[str, ...]) -> str:
        value = obj.get("label")
        if value not in allowed:
            raise self.fail(where, f"must be one of {', '.join(allowed)}; got {value!r}")
        return str(value)

    def turns(self, obj: dict[str, Any], name: str) -> list[dict[str, Any]]:
        turns = self.items(obj, name, name)
        for i, t in enumerate(turns):
            if t.get("role") not in ROLES:
                raise self.fail(f"{name}[{i}].role", f"must be 'user' or 'assistant'; got {t.get('role')!r}")
            self.text(t, "content", f"{name}[{i}].content", blank=True)
        return turns


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _check_statements(ln: _Line, obj: dict[str, Any], metric: str) -> None:
    nodes: list[str] = []
    if metric == "contextual_relevancy":
        raw = obj.get("retrieval_context")
        if not isinstance(raw, list) or not raw or not all(isinstance(n, str) for n in raw):
            raise ln.fail("retrieval_context", "must be a non-empty list of strings")
        nodes = raw
    else:
        ln.text(obj, "actual_output", "actual_output")
    ln.text(obj, "input", "input")
    for i, st in enumerate(ln.items(obj, "statements", "statements")):
        where = f"statements[{i}]"
        ln.text(st, "text", f"{where}.text")
        ln.label(st, f"{where}.label", LABELS[metric])
        ln.tags(st, f"{where}.tags")
        if metric == "contextual_relevancy":
            node = st.get("node")
            if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < len(nodes):
                raise ln.fail(f"{where}.node", f"must be a node index 0..{len(nodes) - 1}; got {node!r}")


def _check_retention(ln: _Line, obj: dict[str, Any], metric: str) -> None:
    turns = ln.turns(obj, "turns")
    labels = obj.get("labels")
    if not isinstance(labels, list):
        raise ln.fail("labels", f"must be a list, got {_kind(labels)}")
    seen: set[int] = set()
    for i, lab in enumerate(labels):
        where = f"labels[{i}]"
        if not isinstance(lab, dict):
            raise ln.fail(where, f"must be an object, got {_kind(lab)}")
        turn = lab.get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(turns):
            raise ln.fail(f"{where}.turn", f"must be a turn index 0..{len(turns) - 1}; got {turn!r}")
        if turns[turn]["role"] != "assistant":
            raise ln.fail(
                f"{where}.turn", f"turn {turn} is a {turns[turn]['role']} turn, not an assistant turn"
            )
        if turn in seen:
            raise ln.fail(f"{where}.turn", f"turn {turn} is labelled twice")
        seen.add(turn)
        ln.label(lab, f"{where}.label", LABELS[metric])
        ln.tags(lab, f"{where}.tags")


def _check_claims(ln: _Line, obj: dict[str, Any], metric: str) -> None:
    ln.turns(obj, "transcript")
    for i, claim in enumerate(ln.items(obj, "claims", "claims")):
        ln.text(claim, "text", f"claims[{i}].text")
        ln.label(claim, f"claims[{i}].label", LABELS[metric])
        ln.tags(claim, f"claims[{i}].tags")


def _check_grade(ln: _Line, obj: dict[str, Any], metric: str) -> None:
    for name in ("question", "expected"):
        ln.text(obj, name, name)
    ln.text(obj, "answer", "answer", blank=True)
    if "fact" in obj and not isinstance(obj["fact"], str):
        raise ln.fail("fact", f"must be a string, got {_kind(obj['fact'])}")
    grade = obj.get("grade")
    if isinstance(grade, bool) or not isinstance(grade, int) or not 1 <= grade <= 5:
        raise ln.fail("grade", f"must be an integer 1-5; got {grade!r}")


def _check_fact(ln: _Line, obj: dict[str, Any], metric: str) -> None:
    ln.text(obj, "text", "text")
    ln.text(obj, "fact", "fact")
    ln.label(obj, "label", LABELS[metric])
    ln.tags(obj, "tags")


_CHECKS: dict[str, Callable[[_Line, dict[str, Any], str], None]] = {
    "answer_relevancy": _check_statements,
    "contextual_relevancy": _check_statements,
    "knowledge_retention": _check_retention,
    "claim_support": _check_claims,
    "memory_grade": _check_grade,
    "fact_stated": _check_fact,
}


def load_items(path: str | Path, metric: str, limit: int | None = None) -> list[Item]:
    """The items of a labelled set for ``metric`` (at most ``limit``; blank lines skipped).

    Raises:
        JudgeSetError: the file cannot be read, is empty, or a line is not a valid item of ``metric`` (bad JSON, a
            missing or mistyped field, another ``kind``, a duplicate ``id``).
        ValueError: ``metric`` is not one of :data:`METRICS`.
    """
    if metric not in _CHECKS:
        raise ValueError(f"unknown metric {metric!r}; one of {', '.join(METRICS)}")
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise JudgeSetError(f"{p}: cannot read the file ({type(err).__name__}: {err})") from err
    items: list[Item] = []
    ids: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as err:
            raise JudgeSetError(f"{p}:{number}: not valid JSON ({err.msg} at column {err.colno})") from None
        if not isinstance(obj, dict):
            raise JudgeSetError(f"{p}:{number}: a line must hold one JSON object, got {_kind(obj)}")
        ln = _Line(p, number, obj)
        item_id = ln.text(obj, "id", "id")
        if item_id in ids:
            raise ln.fail("id", f"{item_id!r} was already used on line {ids[item_id]}")
        ids[item_id] = number
        if obj.get("kind") != metric:
            raise ln.fail("kind", f"must be {metric!r} (the --metric given); got {obj.get('kind')!r}")
        _CHECKS[metric](ln, obj, metric)
        items.append(Item(number, item_id, ln.tags(obj, "tags"), obj))
        if limit is not None and len(items) >= limit:
            break
    if not items:
        raise JudgeSetError(f"{p}: no items (the file is empty)")
    return items
