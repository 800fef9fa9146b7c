"""Encoder access: shapes, normalisation, cache, kinds, errors."""

from __future__ import annotations

import numpy as np
import pytest

from deepeval.models.embedded import encoder


def test_embed_shapes_normalised_and_cached() -> None:
    texts = ["My name is John.", "What is your name?", "My name is John."]
    vecs = encoder.embed(texts, "passage")
    assert vecs.shape == (3, 384)
    assert vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vecs[0], vecs[2])
    again = encoder.embed(["My name is John."], "passage")
    assert np.array_equal(again[0], vecs[0])


def test_query_and_passage_differ_and_similarity_is_meaningful() -> None:
    q = encoder.embed_one("where does the user live", "query")
    p = encoder.embed_one("where does the user live", "passage")
    assert not np.array_equal(q, p)
    near, far = encoder.embed(["I live in Boston.", "Bananas are yellow."], "passage")
    assert float(q @ near) > float(q @ far) + 0.05


def test_empty_text_is_zero_row() -> None:
    vecs = encoder.embed(["", "hello"], "query")
    assert float(np.abs(vecs[0]).sum()) == 0.0
    assert float(np.linalg.norm(vecs[1])) == pytest.approx(1.0, abs=1e-5)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="kind"):
        encoder.embed(["x"], "document")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="strings"):
        encoder.embed([3])  # type: ignore[list-item]


def test_set_backend_swaps_and_restores() -> None:
    calls: list[list[str]] = []

    def fake(texts: list[str], is_query: bool) -> np.ndarray:
        calls.append(texts)
        return np.ones((len(texts), 384), dtype=np.float32)

    try:
        encoder.set_backend(fake)
        v = encoder.embed(["a", "b", "a"])
        assert calls == [["a", "b"]]
        assert np.allclose(v, 1 / np.sqrt(384))
        assert encoder.cache_info()["size"] == 2
    finally:
        encoder.set_backend(None)
    assert encoder.cache_info()["size"] == 0


def test_long_text_is_encoded_as_a_few_bounded_windows() -> None:
    from deepeval.models.embedded import encoder as enc

    seen: list[int] = []

    def backend(texts: list[str], is_query: bool) -> np.ndarray:
        seen.extend(len(t) for t in texts)
        out = np.zeros((len(texts), enc.DIM), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, len(t) % enc.DIM] = 1.0
        return out

    enc.set_backend(backend)
    try:
        assert enc.windows("short text") == ["short text"]
        ws = enc.windows("word " * 1000)
        assert len(ws) == enc.MAX_WINDOWS and all(len(w) <= enc.WINDOW_CHARS for w in ws)
        assert ws[0].startswith("word") and len(enc.windows("a" * 513)) == 2
        vec = enc.embed(["x" * 100_000])[0]
        assert len(seen) == enc.MAX_WINDOWS and max(seen) <= enc.WINDOW_CHARS
        assert abs(float(np.linalg.norm(vec)) - 1.0) < 1e-5
    finally:
        enc.set_backend(None)
