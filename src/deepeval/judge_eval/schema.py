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
from deepeval.metrics.declaration import JudgeEvalTask

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


class Line:
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


def _statements(ln: Line, obj: dict[str, Any], task: JudgeEvalTask, nodes: list[str] | None) -> None:
    ln.text(obj, "input", "input")
    for i, st in enumerate(ln.items(obj, "statements", "statements")):
        where = f"statements[{i}]"
        ln.text(st, "text", f"{where}.text")
        ln.label(st, f"{where}.label", task.labels)
        ln.tags(st, f"{where}.tags")
        if nodes is not None:
            node = st.get("node")
            if isinstance(node, bool) or not isinstance(node, int) or not 0 <= node < len(nodes):
                raise ln.fail(f"{where}.node", f"must be a node index 0..{len(nodes) - 1}; got {node!r}")


def check_context_statements(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """A retrieval context with labelled statements: ``input``, ``retrieval_context`` (strings) and
    ``statements[{text, label, node, tags}]`` (``node``: the index of the node the statement is from)."""
    raw = obj.get("retrieval_context")
    if not isinstance(raw, list) or not raw or not all(isinstance(n, str) for n in raw):
        raise ln.fail("retrieval_context", "must be a non-empty list of strings")
    _statements(ln, obj, task, raw)


def check_retention(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """A conversation with labelled assistant turns: ``turns[{role, content}]``, ``labels[{turn, label, tags}]``."""
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
        ln.label(lab, f"{where}.label", task.labels)
        ln.tags(lab, f"{where}.tags")


def check_claims(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """A transcript with labelled claims: ``transcript[{role, content}]``, ``claims[{text, label, tags}]``."""
    ln.turns(obj, "transcript")
    for i, claim in enumerate(ln.items(obj, "claims", "claims")):
        ln.text(claim, "text", f"claims[{i}].text")
        ln.label(claim, f"claims[{i}].label", task.labels)
        ln.tags(claim, f"claims[{i}].tags")


def check_grade(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """A graded answer: ``question``, ``expected``, ``answer`` (may be blank), ``grade`` 1-5, optional ``fact``."""
    for name in ("question", "expected"):
        ln.text(obj, name, name)
    ln.text(obj, "answer", "answer", blank=True)
    if "fact" in obj and not isinstance(obj["fact"], str):
        raise ln.fail("fact", f"must be a string, got {_kind(obj['fact'])}")
    grade = obj.get("grade")
    if isinstance(grade, bool) or not isinstance(grade, int) or not 1 <= grade <= 5:
        raise ln.fail("grade", f"must be an integer 1-5; got {grade!r}")


def check_fact(ln: Line, obj: dict[str, Any], task: JudgeEvalTask) -> None:
    """A text and a fact with a label: ``text``, ``fact``, ``label``."""
    ln.text(obj, "text", "text")
    ln.text(obj, "fact", "fact")
    ln.label(obj, "label", task.labels)
    ln.tags(obj, "tags")


def read_items(
    path: str | Path,
    metric: str,
    check: Callable[[Line, dict[str, Any], JudgeEvalTask], None],
    task: JudgeEvalTask,
    limit: int | None = None,
) -> list[Item]:
    """The items of a labelled set of the judge-eval task ``task`` (named ``metric``; at most ``limit``; blank
    lines skipped), each validated by ``check`` (:func:`deepeval.judge_eval.tasks.load_items` finds both).

    Raises:
        JudgeSetError: the file cannot be read, is empty, or a line is not a valid item of ``metric`` (bad JSON, a
            missing or mistyped field, another ``kind``, a duplicate ``id``, or ``check`` failed otherwise).
    """
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
        ln = Line(p, number, obj)
        item_id = ln.text(obj, "id", "id")
        if item_id in ids:
            raise ln.fail("id", f"{item_id!r} was already used on line {ids[item_id]}")
        ids[item_id] = number
        if obj.get("kind") != metric:
            raise ln.fail("kind", f"must be {metric!r} (the --metric given); got {obj.get('kind')!r}")
        try:
            check(ln, obj, task)
        except JudgeSetError:
            raise
        except Exception as err:  # a task's own check that failed otherwise: still file, line and the cause
            raise JudgeSetError(
                f"{p}:{number}: the {metric!r} item check failed: {type(err).__name__}: {err}"
            ) from err
        items.append(Item(number, item_id, ln.tags(obj, "tags"), obj))
        if limit is not None and len(items) >= limit:
            break
    if not items:
        raise JudgeSetError(f"{p}: no items (the file is empty)")
    return items
