"""pysbd's English sentence split, faster, with exactly its output.

Two costs dominated a split (ContextualRelevancy splits every context node before its System One request, on the
event loop; measured on the ClapNQ nodes of ``bench/side_by_side.py``, ~280 characters each):

1. **Pattern compilation.** pysbd calls ``re.sub``/``re.findall``/... with pattern strings, many built per
   abbreviation it finds (``"(?:^|\\s)no"``, ``"(?<=\\sSt)\\.(?=\\s)"``...): ordinary English touches over 500
   distinct patterns, more than the ``re`` module's own cache keeps (512 on CPython 3.11, evicted oldest-first), so
   nearly every split recompiled most of them. :func:`install` points the ``re`` name of pysbd's modules at a
   :class:`CachingRe`, which compiles each (pattern, flags) once (LRU of 4,096) and delegates everything else to
   ``re``: 1.6 -> 0.9 ms per node.
2. **Locating the sentences.** ``Segmenter.segment`` finds each processed sentence back in the original text with a
   regular expression made of that sentence (``re.escape(sentence) + r"\\s*"``), compiled once per sentence and never
   reused. :func:`segment` does the same search with ``str.find`` (same leftmost, non-overlapping matches; ``\\s`` is
   ``str.isspace``).

``tests/embedded/test_pysbd_patterns.py`` checks :func:`segment` against ``pysbd.Segmenter.segment`` on the bundled
datasets' texts and on hard cases (abbreviations, numbers, quotes, lists, repeated sentences).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import pysbd


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


def segment(text: str) -> list[str]:
    """``pysbd.Segmenter(language="en", clean=False).segment(text)``: the sentences of ``text`` with the whitespace
    that follows each, as pysbd returns them (a sentence it cannot find back in ``text`` is left out, as there)."""
    if not text:
        return []
    # a Segmenter per call: it keeps the text on itself while it works, so a shared one is not thread-safe
    processed = pysbd.Segmenter(language="en", clean=False).processor(text).process()
    return _locate(processed, text)


def _locate(sentences: list[str], text: str) -> list[str]:
    """pysbd's ``sentences_with_char_spans`` without a regular expression per sentence: for each sentence, the first
    of its non-overlapping occurrences (plus trailing whitespace) that ends after the previous one kept."""
    out: list[str] = []
    prior_end = 0
    n = len(text)
    for sent in sentences:
        if not sent:  # never produced in practice; kept exact by pysbd's own expression
            for m in re.finditer(r"\s*", text):
                if m.end() > prior_end:
                    out.append(m.group())
                    prior_end = m.end()
                    break
            continue
        start = 0
        while (pos := text.find(sent, start)) >= 0:
            end = pos + len(sent)
            while end < n and text[end].isspace():
                end += 1
            if end > prior_end:
                out.append(text[pos:end])
                prior_end = end
                break
            start = end
    return out
