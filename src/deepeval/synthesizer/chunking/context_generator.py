"""Documents to contexts (what ``generate_goldens_from_docs`` feeds to ``generate_goldens_from_contexts``).

Per document: read its text (:mod:`.doc_loader`), cut it into token chunks (:mod:`.splitter`), pick up to
``max_contexts_per_document`` chunks in a random order, each scored by the critic (:class:`ContextScore`, mean of
four criteria) and replaced by the next candidate while under ``context_quality_threshold`` (at most
``max_retries`` candidates per context; the best one tried is kept), then grow each picked chunk into a context with
the document's most similar other chunks (cosine of their embeddings above ``context_similarity_threshold``) up to
``max_context_length`` chunks. The candidates of one round are scored concurrently; a context whose first candidate
passes costs one critic request (deepeval 4.3.1's default async path scores ``max_retries`` candidates per context).

A document that cannot be used (unreadable, too few chunks, its critic calls failed) is skipped and reported through
``on_skip(path, reason)``; the others go on. Random choices come from a generator seeded per document, so one seed
gives the same contexts whatever order the documents finish in.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from deepeval.synthesizer import prompts
from deepeval.synthesizer.calls import Caller, stop_if_cancelled
from deepeval.synthesizer.chunking.doc_loader import DocumentError, load_document
from deepeval.synthesizer.chunking.splitter import split_text
from deepeval.synthesizer.config import ContextConstructionConfig
from deepeval.synthesizer.embedding import a_embed
from deepeval.synthesizer.schema import ContextScore

__all__ = ["BuiltContext", "ContextGenerator", "ContextScore"]


@dataclass
class BuiltContext:
    """One context: its chunks, the files they come from (each file once, and per chunk) and its quality score."""

    context: list[str]
    source_files: list[str]
    chunk_source_files: list[str] = field(default_factory=list)
    score: float | None = None


def _seed(base: int, text: str) -> int:
    return (base * 1_000_003 + zlib.crc32(text.encode("utf-8", "surrogatepass"))) % 2**63


class ContextGenerator:
    def __init__(
        self,
        config: ContextConstructionConfig,
        critic: Caller,
        embedder: Any,
        *,
        seed: int,
        on_skip: Callable[[str, str], None],
        on_document: Callable[[], None] | None = None,
    ) -> None:
        config.check()
        self.config = config
        self.critic = critic
        self.embedder = embedder
        self.seed = seed
        self.on_skip = on_skip
        self.on_document = on_document
        self.total_chunks = 0

    async def a_generate_contexts(self, document_paths: Sequence[str]) -> list[BuiltContext]:
        """The contexts of every usable document, documents in the order given."""
        per_document = await asyncio.gather(*(self._document(str(p)) for p in document_paths))
        contexts = [c for group in per_document for c in group]
        if self.config.allow_cross_file_contexts:
            contexts = await self._merge_cross_file(contexts)
        return contexts

    async def _document(self, path: str) -> list[BuiltContext]:
        try:
            return await self._contexts_of(path)
        except asyncio.CancelledError:
            raise
        except DocumentError as err:
            self.on_skip(path, err.reason)
        except Exception as err:
            stop_if_cancelled(err)
            self.on_skip(path, f"{type(err).__name__}: {err}")
        finally:
            if self.on_document is not None:
                self.on_document()
        return []

    def _check_chunks(self, n_chunks: int) -> None:
        c = self.config
        if n_chunks < c.min_contexts_per_document:
            raise DocumentError(
                "",
                f"{n_chunks} chunk(s) of up to {c.chunk_size} tokens, fewer than min_contexts_per_document="
                f"{c.min_contexts_per_document}; lower min_contexts_per_document or chunk_size",
            )
        if n_chunks < c.min_context_length:
            raise DocumentError(
                "",
                f"{n_chunks} chunk(s) of up to {c.chunk_size} tokens, fewer than min_context_length="
                f"{c.min_context_length}; lower min_context_length or chunk_size",
            )

    async def _contexts_of(self, path: str) -> list[BuiltContext]:
        c = self.config
        text = await asyncio.to_thread(load_document, path, c.encoding)
        chunks = split_text(text, c.chunk_size, c.chunk_overlap)
        try:
            self._check_chunks(len(chunks))
        except DocumentError as err:
            raise DocumentError(path, err.reason) from None
        self.total_chunks += len(chunks)
        rng = random.Random(_seed(self.seed, path))
        picks = await self._pick(chunks, min(c.max_contexts_per_document, len(chunks)), rng)
        size = min(c.max_context_length, len(chunks))
        vectors = await a_embed(self.embedder, chunks) if size > 1 else None
        out: list[BuiltContext] = []
        for index, score in picks:
            members = [index] if vectors is None else self._neighbours(vectors, index, size)
            context = [chunks[i] for i in members]
            out.append(BuiltContext(context, [path], [path] * len(context), score))
        return out

    def _neighbours(self, vectors: np.ndarray, index: int, size: int) -> list[int]:
        similarity = vectors @ vectors[index]
        order = sorted((i for i in range(len(vectors)) if i != index), key=lambda i: (-similarity[i], i))
        chosen = [index]
        for i in order:
            if len(chosen) >= size or similarity[i] <= self.config.context_similarity_threshold:
                break
            chosen.append(i)
        return chosen

    async def _score(self, chunk: str) -> float:
        reply = await self.critic.structured(prompts.rate_context(chunk), ContextScore)
        return min(1.0, max(0.0, reply.mean()))

    async def _pick(self, chunks: list[str], n: int, rng: random.Random) -> list[tuple[int, float]]:
        """``n`` chunk indices and their scores (see the module docstring), in the order they were first tried."""
        candidates = list(range(len(chunks)))
        rng.shuffle(candidates)
        queue = iter(candidates)
        best: list[tuple[int, float] | None] = [None] * n
        tries = [0] * n
        open_slots = list(range(n))
        while open_slots:
            round_items: list[tuple[int, int]] = []
            for slot in open_slots:
                nxt = next(queue, None)
                if nxt is not None:
                    round_items.append((slot, nxt))
            if not round_items:
                break
            scores = await asyncio.gather(*(self._score(chunks[i]) for _, i in round_items))
            still_open: list[int] = []
            for (slot, i), score in zip(round_items, scores, strict=True):
                tries[slot] += 1
                current = best[slot]
                if current is None or score > current[1]:
                    best[slot] = (i, score)
                passed = score >= self.config.context_quality_threshold
                if not passed and tries[slot] < self.config.max_retries:
                    still_open.append(slot)
            open_slots = still_open
        return [b for b in best if b is not None]

    async def _merge_cross_file(self, contexts: list[BuiltContext]) -> list[BuiltContext]:
        """Contexts of different files joined by similarity (``allow_cross_file_contexts``): each context, in order,
        takes the most similar unused contexts of files it does not hold yet, up to ``target_files_per_context``
        files (default: a random number from 2 to ``max_files_per_context``). Every context is used once."""
        c = self.config
        files = {f for item in contexts for f in item.source_files}
        if len(contexts) < 2 or len(files) < 2:
            return contexts
        vectors = await a_embed(self.embedder, ["\n".join(item.context) for item in contexts])
        rng = random.Random(_seed(self.seed, "cross-file"))
        used: set[int] = set()
        merged: list[BuiltContext] = []
        for i, item in enumerate(contexts):
            if i in used:
                continue
            used.add(i)
            upper = min(len(files), c.max_files_per_context)
            target = (
                min(c.target_files_per_context, upper)
                if c.target_files_per_context
                else rng.randint(2, upper)
            )
            held = set(item.source_files)
            group = [item]
            similarity = vectors @ vectors[i]
            for j in sorted(range(len(contexts)), key=lambda j: (-similarity[j], j)):
                if len(held) >= target:
                    break
                if j in used or held & set(contexts[j].source_files):
                    continue
                used.add(j)
                group.append(contexts[j])
                held.update(contexts[j].source_files)
            merged.append(
                BuiltContext(
                    context=[chunk for g in group for chunk in g.context],
                    source_files=list(dict.fromkeys(f for g in group for f in g.source_files)),
                    chunk_source_files=[f for g in group for f in g.chunk_source_files],
                    score=item.score,
                )
            )
        return merged
