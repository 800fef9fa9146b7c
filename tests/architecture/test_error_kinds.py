"""Error kinds are written as ``ErrorKind`` members, never as string literals: no ``kind="auth"`` argument, no
``err.kind == "auth"`` comparison, no ``kind = "timeout"`` assignment, no ``getattr(err, "kind", "server")``
default and no ``*_KINDS`` set of strings outside the enum itself (``deepeval.errors.ErrorKind``). Read from the
sources with ``ast``, so docstrings and other ``kind`` words (numpy's ``kind="mergesort"``) do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import deepeval
from deepeval.errors import ErrorKind

SRC = Path(deepeval.__file__).resolve().parent
VALUES = frozenset(k.value for k in ErrorKind)


def _is_kind(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "kind") or (
        isinstance(node, ast.Attribute) and node.attr == "kind"
    )


def _literals(node: ast.AST) -> list[ast.Constant]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in VALUES]


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    found: list[ast.expr] = []
    for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
        found.extend(target.elts if isinstance(target, ast.Tuple) else [target])
    return found


def kind_literals(source: str) -> list[int]:
    """Lines where a string equal to an ``ErrorKind`` value stands for an error kind."""
    tree = ast.parse(source)
    enum_body = {
        id(n)
        for c in ast.walk(tree)
        if isinstance(c, ast.ClassDef) and c.name == "ErrorKind"
        for n in ast.walk(c)
    }
    lines: set[int] = set()
    for node in ast.walk(tree):
        suspects: list[ast.Constant] = []
        if isinstance(node, ast.keyword) and node.arg == "kind":
            suspects = _literals(node.value)
        elif isinstance(node, ast.Compare) and any(_is_kind(x) for x in [node.left, *node.comparators]):
            suspects = [c for x in [node.left, *node.comparators] for c in _literals(x)]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            names = [t.id if isinstance(t, ast.Name) else getattr(t, "attr", "") for t in _targets(node)]
            if any(n == "kind" or n.upper().endswith("KINDS") for n in names):
                suspects = _literals(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
            if (
                len(node.args) == 3
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value == "kind"
            ):
                suspects = _literals(node.args[2])
        lines.update(c.lineno for c in suspects if id(c) not in enum_body)
    return sorted(lines)


def test_no_error_kind_is_a_string_literal() -> None:
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        for line in kind_literals(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_checker_sees_every_spelling_and_nothing_else() -> None:
    source = """
import numpy as np
from deepeval.errors import ErrorKind, JudgeError
FALLBACK_KINDS = frozenset({"connection", ErrorKind.timeout})
class ErrorKind2:
    server = "server"
def f(err, scores):
    \"\"\"Raises ``JudgeError(kind="auth")``.\"\"\"
    kind, retryable = "timeout", True
    if err.kind == "auth" or "rate_limit" in err.kind:
        raise JudgeError("m", kind="bad_request")
    raise JudgeError("m", kind=ErrorKind.server, question_kind="choice", note=getattr(err, "kind", "server"))
    return np.argsort(scores, kind="mergesort"), {"kind": "auth"}
"""
    assert kind_literals(source) == [4, 9, 10, 11, 12]
