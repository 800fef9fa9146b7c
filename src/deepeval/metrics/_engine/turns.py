"""Conversation helpers shared by the conversational metrics: exchanges (deepeval 4.3.1's "unit interactions") and
sliding windows over them, as index ranges so a long conversation costs memory linear in its length.

An exchange is a run of turns that starts at a user turn and ends at the assistant turn(s) answering it. The turns
are cut where a user turn follows an assistant turn once a user has spoken; turns before the first user turn join
the first exchange; a final run that does not end with an assistant turn (a user turn left unanswered), or that has
no user turn or a single turn, is no exchange. The windows: for exchange ``i``, the turns from the start of
exchange ``max(0, i - size + 1)`` to the end of exchange ``i`` (so the first windows are shorter).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any


def exchanges(turns: Sequence[Any]) -> list[tuple[int, int]]:
    """``(start, end)`` (end exclusive) of every exchange of ``turns`` (objects with ``role``), in order."""
    out: list[tuple[int, int]] = []
    start = 0
    has_user = False
    for i, turn in enumerate(turns):
        if i > start and turns[i - 1].role == "assistant" and turn.role == "user" and has_user:
            out.append((start, i))
            start = i
        if turn.role == "user":
            has_user = True
    end = len(turns)
    if end - start > 1 and turns[end - 1].role == "assistant" and has_user:
        out.append((start, end))
    return out


def windows(spans: Sequence[tuple[int, int]], size: int) -> Iterator[tuple[int, int]]:
    """For each exchange, the turn range of its window of ``size`` exchanges ending with it."""
    for i, (_, end) in enumerate(spans):
        yield spans[max(0, i - size + 1)][0], end


def turn_dicts(turns: Sequence[Any], start: int = 0, end: int | None = None) -> list[dict[str, str]]:
    """``[{"role", "content"}, ...]`` of ``turns[start:end]`` (what a judge reads of a turn)."""
    return [{"role": t.role, "content": t.content} for t in turns[start:end]]


def json_lines(items: Sequence[Any]) -> str:
    """``items`` as a JSON array with one item per line: as readable as ``indent=1`` for a list of turns, and written
    by the C encoder (``json.dumps`` with ``indent`` runs the pure-Python one, ten times slower on long windows)."""
    import json

    return "[\n" + ",\n".join(json.dumps(item, ensure_ascii=False) for item in items) + "\n]"
