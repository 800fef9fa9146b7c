"""A compiled-pattern cache for ``pysbd``'s regular expressions.

pysbd calls ``re.sub``/``re.findall``/... with pattern strings, many built per abbreviation it finds (``"(?:^|\\s)no"``,
``"(?<=\\sSt)\\.(?=\\s)"``...): splitting ordinary English touches over 500 distinct patterns, more than the ``re``
module's own cache keeps (512 on CPython 3.11, evicted oldest-first), so nearly every split recompiled most of them.
Measured on the 79 ClapNQ context nodes of ``bench/side_by_side.py`` (~280 characters each): 1.6 ms per node with
``re``'s cache, 0.9 ms with this one. It matters because ContextualRelevancy splits every node before its System
One request, on the event loop.

:func:`install` points the ``re`` name of pysbd's modules at a :class:`CachingRe`, which compiles each
(pattern, flags) once (LRU of 4,096) and delegates everything else to ``re``; results are identical by construction.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=4096)
def _compiled(pattern: str | bytes, flags: int) -> re.Pattern[Any]:
    return re.compile(pattern, flags)


def _pattern(pattern: Any, flags: int) -> re.Pattern[Any]:
    if isinstance(pattern, re.Pattern):
        return pattern
    return _compiled(pattern, int(flags))


class CachingRe:
    """The ``re`` module's functions pysbd uses, over a larger compiled-pattern cache; other names pass through."""

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    def compile(self, pattern: Any, flags: int = 0) -> re.Pattern[Any]:
        return _pattern(pattern, flags)

    def sub(
        self,
        pattern: Any,
        repl: str | Callable[[re.Match[Any]], str],
        string: str,
        count: int = 0,
        flags: int = 0,
    ) -> str:
        return _pattern(pattern, flags).sub(repl, string, count)

    def findall(self, pattern: Any, string: str, flags: int = 0) -> list[Any]:
        return _pattern(pattern, flags).findall(string)

    def finditer(self, pattern: Any, string: str, flags: int = 0) -> Iterator[re.Match[Any]]:
        return _pattern(pattern, flags).finditer(string)

    def search(self, pattern: Any, string: str, flags: int = 0) -> re.Match[Any] | None:
        return _pattern(pattern, flags).search(string)

    def match(self, pattern: Any, string: str, flags: int = 0) -> re.Match[Any] | None:
        return _pattern(pattern, flags).match(string)

    def fullmatch(self, pattern: Any, string: str, flags: int = 0) -> re.Match[Any] | None:
        return _pattern(pattern, flags).fullmatch(string)

    def split(self, pattern: Any, string: str, maxsplit: int = 0, flags: int = 0) -> list[Any]:
        return _pattern(pattern, flags).split(string, maxsplit)


_CACHING_RE = CachingRe()


def install() -> int:
    """Point every loaded ``pysbd`` module whose global ``re`` is the ``re`` module at the cache; returns how many
    modules it changed (0 when already installed)."""
    changed = 0
    for name, module in list(sys.modules.items()):
        if (name == "pysbd" or name.startswith("pysbd.")) and getattr(module, "re", None) is re:
            module.re = _CACHING_RE  # type: ignore[attr-defined]
            changed += 1
    return changed
