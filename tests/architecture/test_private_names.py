"""A private module or name (``_engine``, ``_base``, ``_TOKEN``) is used only inside the top-level package that owns
it (``deepeval.metrics``, ``deepeval.test_case``, ``deepeval.models``...); what another package needs has a public
home or a public name. The root's own private modules (``deepeval._digest``, ``deepeval._files``...) serve every
package. Read from the sources with ``ast``: imports (function-level ones included) and attribute reads on an
imported module (``grading._TOKEN``)."""

from __future__ import annotations

import ast
from pathlib import Path

import deepeval

SRC = Path(deepeval.__file__).resolve().parent


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(module: str) -> str:
    """The top-level package of ``module``: ``deepeval.metrics`` for ``deepeval.metrics._engine.flow``."""
    return ".".join(module.split(".")[:2])


def _private_owner(dotted: str) -> str | None:
    """The module or package that owns the first private part of ``dotted`` (None when nothing in it is private,
    or when the root package owns it)."""
    parts = dotted.split(".")
    for i, part in enumerate(parts[1:], 1):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:i])
            return None if owner == parts[0] else owner
    return None


def foreign_private_uses(root: Path = SRC) -> list[str]:
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        module = _module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}
        used: list[tuple[int, str]] = []
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").startswith("deepeval")
            ):
                for a in node.names:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                    used.append((node.lineno, f"{node.module}.{a.name}"))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("deepeval"):
                        aliases[a.asname or a.name] = a.name
                        used.append((node.lineno, a.name))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                used.append((node.lineno, f"{aliases[node.value.id]}.{node.attr}"))
        for line, dotted in used:
            owner = _private_owner(dotted)
            if owner is not None and _package(owner) != _package(module):
                out.append(f"{path.relative_to(root)}:{line}: {dotted}")
    return sorted(set(out))


def test_no_package_uses_another_packages_private_modules_or_names() -> None:
    assert foreign_private_uses() == []


def test_the_checker_sees_private_modules_names_and_attributes(tmp_path: Path) -> None:
    pkg = tmp_path / "deepeval"
    files = {
        "__init__.py": "",
        "_digest.py": "",
        "metrics/__init__.py": "",
        "metrics/_engine/__init__.py": "",
        "metrics/_engine/flow.py": "from deepeval.metrics._engine import x\n",
        "models/grading.py": "_TOKEN = 1\n",
        "memory/__init__.py": "",
        "memory/a.py": "from deepeval import _digest\nfrom deepeval.metrics._engine.flow import measuring\n",
        "memory/b.py": "def f():\n    from deepeval.models import grading as g\n    return g._TOKEN + g.public\n",
    }
    for rel, text in files.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text, encoding="utf-8")
    assert foreign_private_uses(pkg) == [
        "memory/a.py:2: deepeval.metrics._engine.flow.measuring",
        "memory/b.py:3: deepeval.models.grading._TOKEN",
    ]
