"""The import graph of ``src/deepeval`` has no cycle, function-level imports included.

The graph is read from the sources with ``ast``: an edge for every ``import`` / ``from ... import`` (module level,
inside functions and methods, relative ones resolved), to the module named (``from pkg import mod`` names
``pkg.mod`` when that is a module) -- except imports under ``if TYPE_CHECKING:``, which never run -- and an edge for
every string literal that names one of our modules in a module that calls ``importlib.import_module`` (the lazy
registries of ``deepeval.metrics``, ``deepeval.models``, the CLI's sub-commands), and for every
``"package.module:attribute"`` string anywhere (the paths a metric declaration names, which the registry imports). The implicit import of a
module's parent packages is not an edge (every module would then sit in a cycle through ``deepeval/__init__``).
A cycle is a strongly connected component of two or more modules.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import deepeval

SRC = Path(deepeval.__file__).resolve().parent
_PATH = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def _module_names(root: Path) -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = (
                test.id
                if isinstance(test, ast.Name)
                else test.attr
                if isinstance(test, ast.Attribute)
                else ""
            )
            if name == "TYPE_CHECKING":
                skipped.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    return skipped


def _imports(name: str, path: Path, modules: Iterable[str]) -> dict[str, int]:
    """The modules of ``modules`` that ``name`` (the module at ``path``) imports, each with a line that does."""
    known = set(modules)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = _type_checking_nodes(tree)
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    out.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                if full in known:
                    out.setdefault(full, node.lineno)
                elif target in known:
                    out.setdefault(target, node.lineno)
    for node in ast.walk(tree):  # "package.module:attribute": a path the metric registry resolves (an import)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _PATH.fullmatch(node.value):
            module = node.value.partition(":")[0]
            if module in known:
                out.setdefault(module, node.lineno)
    if "import_module" in source:
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                out.setdefault(node.value, node.lineno)
    out.pop(name, None)
    return out


def import_graph(root: Path = SRC) -> dict[str, dict[str, int]]:
    """``{module: {imported module: line}}`` for every module under ``root`` (a package folder)."""
    modules = _module_names(root)
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of two or more modules (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            nxt = next(successors, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(graph: dict[str, dict[str, int]], component: list[str]) -> list[str]:
    members = set(component)
    return [f"{m}:{line} -> {d}" for m in component for d, line in sorted(graph[m].items()) if d in members]


def test_no_import_cycle_in_deepeval() -> None:
    graph = import_graph()
    assert len(graph) >= 150 and sum(len(v) for v in graph.values()) >= 500  # the reader itself works
    found = [_describe(graph, c) for c in cycles(graph)]
    assert found == []


def _write(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "deepeval"
    for rel, text in files.items():
        path = pkg / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return pkg


def test_the_reader_sees_function_level_relative_and_lazy_imports_but_not_type_checking(
    tmp_path: Path,
) -> None:
    pkg = _write(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "def f():\n    from deepeval.b import x\n",
            "b.py": "from . import c\n",
            "c.py": "import importlib\n_LAZY = {'X': 'deepeval.d'}\nimportlib.import_module(_LAZY['X'])\n",
            "d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from deepeval import a\n",
        },
    )
    graph = import_graph(pkg)
    assert graph["deepeval.a"] == {"deepeval.b": 2}
    assert graph["deepeval.b"] == {"deepeval.c": 1}
    assert graph["deepeval.c"] == {"deepeval.d": 2}
    assert graph["deepeval.d"] == {}
    assert cycles(graph) == []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    pkg = _write(
        tmp_path,
        {
            "__init__.py": "",
            "config.py": "def g():\n    from deepeval.errors import E\n",
            "errors.py": "class E(Exception):\n    def __init__(self):\n        from deepeval import config\n",
            "other.py": "from deepeval import errors\n",
        },
    )
    graph = import_graph(pkg)
    assert cycles(graph) == [["deepeval.config", "deepeval.errors"]]
    assert _describe(graph, ["deepeval.config", "deepeval.errors"]) == [
        "deepeval.config:2 -> deepeval.errors",
        "deepeval.errors:3 -> deepeval.config",
    ]
