"""Known user facts over a conversation, with corrections (ours: a later correction replaces the earlier fact).

An extractor may offer ``fact_updates(user_message, previous)`` (sync or async) returning an object with ``added``
and ``superseded`` lists (the LLM extractor and the embedded deterministic extractor both do); otherwise only
``facts()`` is used and nothing is superseded. A superseded fact is matched to a known fact exactly, or when their
``rapidfuzz`` token-sort similarity (0-100, case-insensitive) is at least :data:`SAME_FACT_SIMILARITY`, since an LLM
may reword the fact it supersedes, or by topic: the LLM extractor writes facts as ``"topic: value"`` (see
:class:`~deepeval.metrics._engine.extractor.Knowledge`) and may name only the topic it supersedes.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, overload

from rapidfuzz import fuzz

from deepeval.metrics._engine.extractor import FactChanges, same_topic
from deepeval.models.extraction import Extractor

SAME_FACT_SIMILARITY = 85.0


class TurnsBefore(Sequence[tuple[str, str]]):
    """The ``(role, content)`` pairs of ``turns[:stop]``, read on demand: the ``previous`` an extractor gets for one
    user turn. A view, not a copy, so asking every user turn of an N-turn conversation at once holds O(N) memory,
    not the O(N**2) of one fresh list per turn (10,000 turns: 1.6 GB)."""

    __slots__ = ("_stop", "_turns")

    def __init__(self, turns: Sequence[Any], stop: int) -> None:
        self._turns = turns
        self._stop = max(0, min(stop, len(turns)))

    def __len__(self) -> int:
        return self._stop

    @overload
    def __getitem__(self, index: int) -> tuple[str, str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, str]]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, str] | list[tuple[str, str]]:
        if isinstance(index, slice):
            return [self._pair(i) for i in range(*index.indices(self._stop))]
        if index < 0:
            index += self._stop
        if not 0 <= index < self._stop:
            raise IndexError("turn index out of range")
        return self._pair(index)

    def _pair(self, i: int) -> tuple[str, str]:
        turn = self._turns[i]
        return turn.role, turn.content


async def fact_changes(
    extractor: Extractor, user_message: str, previous: Sequence[tuple[str, str]]
) -> FactChanges:
    """The facts ``user_message`` adds and the earlier ones it supersedes."""
    fn: Any = getattr(extractor, "fact_updates", None)
    if fn is None:
        return FactChanges(list(await extractor.facts(user_message, previous)), [])
    result = fn(user_message, previous)
    if inspect.isawaitable(result):
        result = await result
    return FactChanges(list(result.added), list(result.superseded), getattr(result, "knowledge", None))


def same_fact(a: str, b: str) -> bool:
    """Exact match, or token-sort similarity >= :data:`SAME_FACT_SIMILARITY`."""
    if a.strip() == b.strip():
        return True
    return bool(fuzz.token_sort_ratio(a.lower(), b.lower()) >= SAME_FACT_SIMILARITY)


def supersedes(superseded: str, fact: str) -> bool:
    """Whether the entry ``superseded`` (a fact as first stated, or just its topic) names the known ``fact``: the
    same fact (:func:`same_fact`), or, for a ``"topic: value"`` fact, the same topic
    (:func:`~deepeval.metrics._engine.extractor.same_topic`)."""
    if same_fact(fact, superseded):
        return True
    return ":" in fact and same_topic(superseded, fact)


def apply_changes(known: Sequence[str], changes: FactChanges) -> list[str]:
    """``known`` without the facts ``changes`` supersedes, then its new facts (oldest first, no duplicates)."""
    kept = [f for f in known if not any(supersedes(s, f) for s in changes.superseded)]
    return kept + [f for f in changes.added if f not in kept]
