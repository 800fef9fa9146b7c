"""Import rules of the judge clients, read from the sources with ``ast`` (function-level imports included):
``models/http`` is shared plumbing that imports neither client family; ``llms`` and ``system_one`` never import
each other; and the modules of those three packages form no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import deepeval.models

MODELS = Path(deepeval.models.__file__).resolve().parent
PACKAGES = ("http", "llms", "system_one")


def _module_name(path: Path) -> str:
    rel = path.relative_to(MODELS).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(["deepeval", "models", *parts])


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = path.is_relative_to(MODELS)
    name = _module_name(path) if inside else "deepeval.models.outside"
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)  # `from pkg import module`
    return {m for m in out if m.startswith("deepeval.")}


def _graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (MODELS / pkg).rglob("*.py")]
    modules = {_module_name(p): p for p in files}
    return {name: {m for m in _imports(path) if m in modules and m != name} for name, path in modules.items()}


def _family(module: str) -> str:
    return module.split(".")[2]


def test_http_imports_neither_client_family_and_the_families_do_not_import_each_other() -> None:
    graph = _graph()
    assert any(_family(m) == "http" for m in graph) and len(graph) >= 15
    broken = sorted(
        f"{src} -> {dst}"
        for src, dsts in graph.items()
        for dst in dsts
        if (_family(src) == "http" and _family(dst) in ("llms", "system_one"))
        or {_family(src), _family(dst)} == {"llms", "system_one"}
    )
    assert broken == []


def test_no_import_cycle_between_client_modules() -> None:
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    # a package's __init__ importing its own modules is no cycle worth the name; anything else is
    real = [c for c in cycles if not any(m.count(".") == 2 for m in c)]
    assert real == []


def test_the_rule_checker_sees_function_level_imports(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from deepeval.models.http.transport import x\n")
    assert "deepeval.models.http.transport" in _imports(a)
