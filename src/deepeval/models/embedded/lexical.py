"""IDF-weighted lexical overlap for the embedded judge's relevance features.

The encoder blurs rare, decisive words (a name, a title, a technical term) into the topic; an IDF-weighted overlap
of the question's content words (:func:`deepeval.models.embedded.text.content_words`, light stems) with a sentence
does not. IDF is ``log((N + 1) / (df + 0.5))`` (the BM25 form, Robertson & Zaragoza 2009, without the length
term) over a document collection: the shipped table is computed by ``training/train_embedded.py`` from the ClapNQ
passages of the training split (Wikipedia text) and stored in ``data/embedded_judge.json`` under ``"idf"``. A word
missing from the table counts as rare (``df = 1``); with no table at all every word weighs the same.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

from deepeval.models.embedded import text as tx

_table: dict[str, Any] | None = None


def build_idf(documents: Iterable[str], min_df: int = 2) -> dict[str, Any]:
    """``{"n_docs": N, "df": {word: df}}`` over ``documents`` (words with ``df >= min_df`` kept; the rest count as
    ``df = 1`` when read back)."""
    df: Counter[str] = Counter()
    n = 0
    for doc in documents:
        n += 1
        df.update(set(tx.content_words(doc)))
    return {"n_docs": n, "df": {w: c for w, c in sorted(df.items()) if c >= min_df}}


def set_idf(table: dict[str, Any] | None) -> None:
    """Use ``table`` (from :func:`build_idf`) instead of the shipped one; ``None`` reloads the shipped table."""
    global _table
    _table = table
    _weight.cache_clear()


def _shipped() -> dict[str, Any]:
    raw = (
        resources.files("deepeval.models.embedded").joinpath("data", "embedded_judge.json").read_text("utf-8")
    )
    return dict(json.loads(raw).get("idf") or {"n_docs": 0, "df": {}})


@lru_cache(maxsize=65536)
def _weight(word: str) -> float:
    global _table
    if _table is None:
        _table = _shipped()
    n = int(_table.get("n_docs", 0))
    if n <= 0:
        return 1.0
    df = int(_table["df"].get(word, 1))
    return math.log((n + 1) / (df + 0.5))


def idf(word: str) -> float:
    """IDF weight of a content word (stemmed as :func:`~deepeval.models.embedded.text.content_words` does), > 0."""
    return _weight(word)


def idf_coverage(query_words: Iterable[str], text_words: frozenset[str]) -> float:
    """IDF-weighted share of the distinct ``query_words`` found in ``text_words``, in [0, 1] (0 with no words)."""
    qs = set(query_words)
    # math.fsum: exactly rounded, so the sum does not depend on the set's iteration order (which follows string
    # hashing, randomised per process): the same input gives bit-identical scores in every process
    total = math.fsum(_weight(w) for w in qs)
    if total <= 0:
        return 0.0
    return math.fsum(_weight(w) for w in qs if w in text_words) / total
