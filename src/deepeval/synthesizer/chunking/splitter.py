"""Cutting text into chunks of ``chunk_size`` tokens overlapping by ``chunk_overlap`` tokens.

Tokens (ours; deepeval 4.3.1 counts GPT-2 BPE tokens with ``tiktoken``, which downloads its vocabulary on first use
and so cannot run offline): a run of letters, a run of digits, or one other non-space character, a letter run longer
than :data:`PIECE` characters counting one token per :data:`PIECE` characters. On English prose this lands close
to BPE counts (about 1.3 tokens a word). A chunk is the exact slice of the text from its first token to its last;
it never cuts a word, so a chunk may start or end up to one long word beyond its token window.
"""

from __future__ import annotations

import re

PIECE = 6
_TOKEN = re.compile(r"[^\W\d_]+|\d+|[^\s\w]|_", re.UNICODE)


def token_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of each token of ``text``."""
    spans: list[tuple[int, int]] = []
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        if end - start > PIECE and text[start].isalpha():
            spans.extend((s, min(s + PIECE, end)) for s in range(start, end, PIECE))
        else:
            spans.append((start, end))
    return spans


def count_tokens(text: str) -> int:
    return len(token_spans(text))


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
    spans = token_spans(text)
    # a piece that continues the previous one (a long word cut into pieces) never starts or ends a chunk
    joined = [
        k > 0 and spans[k - 1][1] == spans[k][0] and text[spans[k][0]].isalpha() for k in range(len(spans))
    ]
    step = chunk_size - chunk_overlap
    chunks: list[str] = []
    for first in range(0, len(spans), step):
        last = min(first + chunk_size, len(spans)) - 1
        start, end = first, last
        while start > 0 and joined[start]:
            start -= 1
        while end + 1 < len(spans) and joined[end + 1]:
            end += 1
        chunk = text[spans[start][0] : spans[end][1]]
        if not chunks or chunk != chunks[-1]:
            chunks.append(chunk)
        if end == len(spans) - 1:
            break
    return chunks
