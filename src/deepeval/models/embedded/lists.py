"""Markdown lists of bare items: one statement per item, each made self-contained by its lead-in.

"- Sunscreen\\n- Swimsuit\\n- A hat" answers "What should I pack?" as "Sunscreen, swimsuit and a hat" does, but each
item must still be judged on its own, or an irrelevant item hides behind relevant ones. A bare item ("A hat") says
little alone, so an item that is a fragment (at most :data:`FRAGMENT_TOKENS` words, no sentence of its own) of a
run of two or more is prefixed with the run's lead-in line when the line before the list ends with a colon
("Items to pack: A hat."); the lead-in is then not a statement of its own (it answers nothing by itself). Without
a lead-in the item stays bare: the relevance features read a short statement as an elliptical answer to the
request (``frag_fit`` in :func:`deepeval.models.embedded.features.relevance_features`). Bullets that are sentences
stay separate statements, as a sentence splitter gives them.
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


def _item(lead_in: str | None, item: str) -> str:
    if not lead_in:
        return item
    return f"{lead_in.rstrip()} {item}."  # the item's case is kept: it may be a name


def split_with_lists(text: str, split: Callable[[str], list[str]]) -> list[str]:
    """Sentences of ``text`` by ``split``, except that each item of a run of two or more fragment bullets is one
    statement, prefixed with the run's colon-ended lead-in sentence when there is one."""
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
        out.extend(_item(lead_in, it) for it in run)
        i = j
    out.extend(split("\n".join(prose)))
    return out
