"""Cutting text into chunks of ``chunk_size`` tokens overlapping by ``chunk_overlap`` tokens.

Tokens (ours; deepeval 4.3.1 counts GPT-2 BPE tokens with ``tiktoken``, which downloads its vocabulary on first use
and so cannot run offline): a run of letters, a run of digits, or one other non-space character, a letter run longer
than :data:`PIECE` characters counting one token per :data:`PIECE` characters. On English prose this lands close
to BPE counts (about 1.3 tokens a word). A chunk is the exact slice of the text from its first token to its last;
it never cuts a word, so a chunk may start or end up to one long word beyond its token window.
"""

from __future__ import annotations

import re
from array import array

PIECE = 6
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\s\w]|_", re.UNICODE)


def _pieces(text: str) -> tuple[array[int], array[int], bytearray]:
    """Token start and end offsets, and for each token whether it continues the previous one (a piece of a long
    word), in compact arrays (a large document stays a few bytes per token)."""
    starts: array[int] = array("q")
    ends: array[int] = array("q")
    joined = bytearray()
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        if end - start > PIECE and text[start].isalpha():
            for s in range(start, end, PIECE):
                starts.append(s)
                ends.append(min(s + PIECE, end))
                joined.append(s != start)
        else:
            starts.append(start)
            ends.append(end)
            joined.append(0)
    return starts, ends, joined


def token_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of each token of ``text``."""
    starts, ends, _ = _pieces(text)
    return list(zip(starts, ends, strict=True))


def count_tokens(text: str) -> int:
    return len(_pieces(text)[0])


def split_text(text: str, chunk_size: int, chunk_overlap: int = 0) -> list[str]:
    """``text`` as chunks of at most ``chunk_size`` tokens, each starting ``chunk_size - chunk_overlap`` tokens after
    the previous one; a text of fewer tokens than ``chunk_size`` is one chunk; a text without tokens none.

    Raises:
        ValueError: ``chunk_size`` < 1 or ``chunk_overlap`` outside ``[0, chunk_size - 1]``.
    """
    if chunk_size < 1:
        raise ValueError(f"`chunk_size` must be at least 1, got {chunk_size}")
    if not 0 <= chunk_overlap <= chunk_size - 1:
        raise ValueError(f"`chunk_overlap` must not exceed {chunk_size - 1} (chunk_size - 1)")
    starts, ends, joined = _pieces(text)
    total = len(starts)
    step = chunk_size - chunk_overlap
    chunks: list[str] = []
    previous = (-1, -1)
    for first in range(0, total, step):
        start, end = first, min(first + chunk_size, total) - 1
        while start > 0 and joined[start]:  # never cut a word
            start -= 1
        while end + 1 < total and joined[end + 1]:
            end += 1
        if (start, end) != previous:  # two windows inside one long word give the same slice once
            chunks.append(text[starts[start] : ends[end]])
            previous = (start, end)
        if end == total - 1:
            break
    return chunks
