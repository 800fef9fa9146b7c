"""Lazy package exports: a package names what it exports and where each name lives, and the module is imported
on first use, so importing the package (or the registry reading a metric's ``declaration``) stays light."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, table: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``table[name]`` (a module path) and returns its
    ``name``; an unknown name raises ``AttributeError`` as Python's own lookup does."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
