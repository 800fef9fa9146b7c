"""Markdown lists of bare items, read as the one statement they make.

"- Sunscreen\\n- Swimsuit\\n- A hat" answers "What should I pack?" exactly as "Sunscreen, swimsuit and a hat" does,
but a sentence splitter turns it into bare noun phrases that say nothing on their own ("A hat" is relevant only as
an item of the packing list). An LLM's statement extraction reads the items with the sentence that introduces them;
ours does the same deterministically: a run of two or more consecutive bullet items that are fragments (at most
:data:`FRAGMENT_TOKENS` words, no sentence of their own) becomes one statement, prefixed with its lead-in line when
the line before the list ends with a colon ("Items to pack: sunscreen, swimsuit, a hat."). Bullets that are
sentences stay separate statements.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from deepeval.models.embedded import text as tx

#: An item with more words than this is read as a statement of its own.
FRAGMENT_TOKENS = 4

_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(.*\S)\s*$")


def _fragment(line: str) -> str | None:
    """The item text of a bullet line that is a fragment, else ``None``."""
    m = _ITEM.match(line)
    if not m:
        return None
    body = m.group(1).strip()
    n = len(tx.tokens(body))
    if n == 0 or n > FRAGMENT_TOKENS or len(tx.split_sentences(body)) != 1 or body.endswith((".", "!", "?")):
        return None
    return body.rstrip(",;")


def _enumeration(lead_in: str | None, items: list[str]) -> str:
    body = ", ".join(items) + "."
    return f"{lead_in.rstrip()} {body}" if lead_in else body


def split_with_lists(text: str, split: Callable[[str], list[str]]) -> list[str]:
    """Sentences of ``text`` by ``split``, except that each run of two or more fragment bullets is one statement
    (with its colon-ended lead-in sentence when there is one)."""
    lines = tx.normalize_quotes(text).splitlines()
    out: list[str] = []
    prose: list[str] = []
    i = 0
    while i < len(lines):
        run: list[str] = []
        j = i
        while j < len(lines) and (item := _fragment(lines[j])) is not None:
            run.append(item)
            j += 1
        if len(run) < 2:
            prose.append(lines[i])
            i += 1
            continue
        sentences = split("\n".join(prose))
        prose = []
        lead_in = sentences.pop() if sentences and sentences[-1].rstrip().endswith(":") else None
        out.extend(sentences)
        out.append(_enumeration(lead_in, run))
        i = j
    out.extend(split("\n".join(prose)))
    return out
