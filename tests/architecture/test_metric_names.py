"""The engine knows metrics by their declarations, never by name: no module outside a metric's own folder names a
declared metric (its registry name or its exported class name) in code: names, attributes, imports and string
literals, docstrings and comments left out (prose may give an example). The registry, the metric packages'
``__init__`` and the quickstart (which writes an example file) are allowed to."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import deepeval
from deepeval.metrics import registry

SRC = Path(deepeval.__file__).resolve().parent
ALLOWED_FILES = {"metrics/registry.py", "cli/quickstart.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _words(tree: ast.AST) -> list[tuple[ast.AST, str, int]]:
    skip = _docstrings(tree)
    out: list[tuple[ast.AST, str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            out.append((node, node.value, node.lineno))
        elif isinstance(node, ast.Name):
            out.append((node, node.id, node.lineno))
        elif isinstance(node, ast.Attribute):
            out.append((node, node.attr, node.lineno))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out += [(node, a.name, node.lineno) for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.module:
                out.append((node, node.module, node.lineno))
    return out


def _names_metric(word: str, name: str, public_name: str, code_name: bool) -> bool:
    """Whether ``word`` names the metric: its class name anywhere; its registry name as a part of a dotted or
    ``module:attribute`` path or a kind (``metrics.bias.metric``, ``"bias.opinion"``). A bare identifier or string
    equal to a generic registry name (``bias``: a model's intercept) is not the metric."""
    if public_name in word:
        return True
    if code_name or ("." not in word and ":" not in word):
        return False
    return name in re.split(r"[.:/]", word)


def _named(source: str, rel: str) -> list[str]:
    """Where ``source`` (the module ``rel``) names a declared metric in code."""
    found = []
    tree = ast.parse(source)
    identifiers = {id(n) for n in ast.walk(tree) if isinstance(n, (ast.Name, ast.Attribute))}
    for node, word, line in _words(tree):
        for d in registry.declarations():
            if _names_metric(word, d.name, d.public_name, id(node) in identifiers):
                found.append(f"{rel}:{line} names {d.name} ({word[:60]!r})")
    return found


def test_no_module_outside_a_metric_folder_names_the_metric() -> None:
    folders = {
        d.cls.partition(":")[0].rpartition(".")[0].replace(".", "/").removeprefix("deepeval/")
        for d in registry.declarations()
    }
    stray = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel in ALLOWED_FILES or any(rel.startswith(f + "/") for f in folders):
            continue
        stray += _named(path.read_text(encoding="utf-8"), rel)
    assert not stray, "\n".join(stray)


def test_the_check_sees_a_name() -> None:
    code = (
        '"""AnswerRelevancyMetric in prose is fine."""\n'
        "from deepeval.metrics.answer_relevancy.pipeline import PIPELINE\n"
        'KIND = "faithfulness.all_supported"\n'
    )
    assert [f.split(" ")[2] for f in _named(code, "x.py")] == ["answer_relevancy", "faithfulness"]
