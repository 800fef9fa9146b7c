"""The embedded judge's question kinds in one table: kind -> the fields it needs -> its scorer.

Each :class:`KindSpec` says which fields a question of that kind must carry (``{**state, **question.data}``),
which texts its scorer will encode (so that :func:`deepeval.models.embedded.judge._prefetch` can batch them), how
it gives P(yes), and, for kinds with their own level scale, the level distribution of a score question. The judge
(:mod:`deepeval.models.embedded.judge`) looks a kind up here, checks the fields and shapes the answer; adding a kind
is one entry in :data:`KINDS`. The kinds themselves are named in :mod:`deepeval.models.system_one.kinds`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deepeval.errors import UnsupportedQuestionError
from deepeval.models.embedded import composite, features, scorers
from deepeval.models.system_one import kinds as K


@dataclass
class Texts:
    """What one request will encode: query texts, passage texts, and documents whose sentences are passages."""

    queries: set[str] = field(default_factory=set)
    passages: set[str] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)


@dataclass
class Asked:
    """One question as its scorer sees it: its kind, its fields, and the request's memo (the whole-metric
    extractions of one test case, shared by every question of the request)."""

    kind: str
    fields: dict[str, Any]
    memo: dict[str, Any]
    model: str

    def text(self, name: str) -> str:
        value = self.fields.get(name)
        return value if isinstance(value, str) else ""

    def optional(self, name: str) -> str | None:
        value = self.fields.get(name)
        return str(value) if value else None

    def ar(self) -> dict[str, Any]:
        if "ar" not in self.memo:
            self.memo["ar"] = composite.answer_relevancy(self.fields)
        return self.memo["ar"]  # type: ignore[no-any-return]

    def cr(self) -> dict[str, Any]:
        if "cr" not in self.memo:
            self.memo["cr"] = composite.contextual_relevancy(self.fields)
        return self.memo["cr"]  # type: ignore[no-any-return]

    def kr(self) -> list[dict[str, float]]:
        if "kr" not in self.memo:
            self.memo["kr"] = composite.knowledge_retention(self.fields)
        return self.memo["kr"]  # type: ignore[no-any-return]

    def grade(self) -> list[float]:
        """The 5-level distribution of ``answer_matches_expected`` (index 0..4 = grades 1..5)."""
        try:
            from deepeval.models.embedded.grading import grade_answer
        except ImportError as exc:
            raise UnsupportedQuestionError(
                f"answer grading is not available in this installation ({exc})",
                model=self.model,
                question_kind=K.ANSWER_MATCHES_EXPECTED,
            ) from exc
        f = self.fields
        graded = grade_answer(str(f["question"]), str(f["expected"]), str(f["answer"]))
        if graded.probabilities:
            return [graded.probabilities.get(i, 0.0) for i in range(5)]
        return binomial_levels(min(1.0, graded.score / 4.0), 5)


@dataclass(frozen=True)
class KindSpec:
    """One question kind: the fields it needs (checked in this order, from ``question.data`` or the state), the
    texts it encodes, P(yes), and its own level distribution for score questions (None: Binomial from P(yes))."""

    fields: tuple[str, ...]
    probability: Callable[[Asked], float]
    levels: Callable[[Asked], list[float]] | None = None
    texts: Callable[[dict[str, Any], Texts], None] | None = None


def binomial_levels(p: float, n_levels: int) -> list[float]:
    """Binomial(n_levels - 1, p) over level indices 0..n_levels-1 (expected level ``(n_levels - 1) * p``)."""
    n = n_levels - 1
    return [math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n_levels)]


def _expected_share(dist: list[float]) -> float:
    """The expected level of ``dist`` over its top level, in [0, 1]."""
    return min(1.0, max(0.0, sum(i * q for i, q in enumerate(dist)) / (len(dist) - 1)))


def _mean(ps: list[float], empty: float) -> float:
    return sum(ps) / len(ps) if ps else empty


# -- texts each scorer encodes (best effort: a missing field adds nothing, the scorer reports it) ----------------
def _str(fields: dict[str, Any], name: str) -> str:
    value = fields.get(name)
    return value if isinstance(value, str) else ""


def _relevance_texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(_str(fields, "input"))
    out.passages.update((_str(fields, "input"), _str(fields, "statement")))
    out.documents.update((_str(fields, "node"), _str(fields, "context")))


def _statement_texts(fields: dict[str, Any], out: Texts) -> None:
    _relevance_texts(fields, out)
    out.passages.update(features.elliptical_texts(_str(fields, "input"), _str(fields, "statement")))


def _claim_texts(fields: dict[str, Any], out: Texts) -> None:
    out.passages.update((_str(fields, "claim"), *features.sentences_of(_str(fields, "source"))))


def _stated_texts(fields: dict[str, Any], out: Texts) -> None:
    out.passages.update(
        (_str(fields, "fact") or _str(fields, "question"), *features.sentences_of(_str(fields, "text")))
    )


def _fact_stated(a: Asked) -> float:
    """The encoder's P(the text states the fact): claim support of the fact, or of the question (whose words an
    answering text repeats) when a question is asked instead."""
    fact = a.text("fact") or a.text("question")
    if not fact:
        raise UnsupportedQuestionError(
            "question kind 'fact_stated' needs the field 'fact' or 'question'",
            model=a.model,
            question_kind=K.FACT_STATED,
        )
    return scorers.claim_supported(fact, a.text("text"))


def _ar_texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(_str(fields, "input"))
    output = fields.get("actual_output", fields.get("actualOutput"))
    out.passages.update(
        (_str(fields, "input"), *features.sentences_of(output if isinstance(output, str) else ""))
    )


def _cr_texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(_str(fields, "input"))
    out.passages.add(_str(fields, "input"))
    for node in composite.context_texts(fields.get("retrieval_context", fields.get("retrievalContext"))):
        out.passages.update(features.sentences_of(node))


# -- scorers ----------------------------------------------------------------------------------------------------
def _turn(key: str) -> Callable[[Asked], float]:
    def probability(a: Asked) -> float:
        facts = a.fields["facts"]
        if isinstance(facts, str):
            facts = [facts]
        probs = scorers.turn_probabilities(
            [str(f) for f in facts], str(a.fields["assistant_message"]), a.optional("user_message")
        )
        return probs[key]

    return probability


def _kr_level(a: Asked) -> list[float]:
    return composite.retention_levels([t["attrition"] for t in a.kr()])


_TURN = ("facts", "assistant_message")

#: every kind the embedded judge answers
KINDS: dict[str, KindSpec] = {
    K.STATEMENT_RELEVANT: KindSpec(
        ("input", "statement"),
        lambda a: scorers.statement_relevant(
            str(a.fields["input"]), str(a.fields["statement"]), a.optional("answer")
        ),
        texts=_statement_texts,
    ),
    K.CONTEXT_STATEMENT_RELEVANT: KindSpec(
        ("input", "statement"),
        lambda a: scorers.context_statement_relevant(
            str(a.fields["input"]), str(a.fields["statement"]), a.optional("node"), a.optional("context")
        ),
        texts=_relevance_texts,
    ),
    K.CONTEXT_NODE_RELEVANT: KindSpec(
        ("input", "node"),
        lambda a: scorers.node_relevant(str(a.fields["input"]), str(a.fields["node"])),
        texts=_relevance_texts,
    ),
    K.CLAIM_SUPPORTED: KindSpec(
        ("claim", "source"),
        lambda a: scorers.claim_supported(str(a.fields["claim"]), str(a.fields["source"])),
        texts=_claim_texts,
    ),
    K.FACT_STATED: KindSpec(("text",), _fact_stated, texts=_stated_texts),
    K.TURN_ATTRITION: KindSpec(_TURN, _turn("attrition")),
    K.TURN_FORGETS: KindSpec(_TURN, _turn("forgets")),
    K.TURN_REASKS: KindSpec(_TURN, _turn("reasks")),
    K.ANSWER_MATCHES_EXPECTED: KindSpec(
        ("question", "expected", "answer"), lambda a: _expected_share(a.grade()), levels=Asked.grade
    ),
    K.AR_ALL_RELEVANT: KindSpec(
        ("input",), lambda a: composite.weakest(a.ar()["probabilities"], empty=0.995), texts=_ar_texts
    ),
    K.AR_ADDRESSES_INPUT: KindSpec(
        ("input",), lambda a: composite.strongest(a.ar()["probabilities"], empty=0.005), texts=_ar_texts
    ),
    K.AR_RELEVANT_SHARE: KindSpec(
        ("input",),
        lambda a: _mean(a.ar()["probabilities"], empty=1.0),
        levels=lambda a: (
            composite.share_levels(ps) if (ps := a.ar()["probabilities"]) else [0.0, 0.0, 0.0, 1.0]
        ),
        texts=_ar_texts,
    ),
    K.CR_ALL_RELEVANT: KindSpec(
        ("input",), lambda a: composite.weakest(a.cr()["probabilities"], empty=0.005), texts=_cr_texts
    ),
    K.CR_EVERY_NODE_RELEVANT: KindSpec(
        ("input",), lambda a: composite.weakest(a.cr()["node_probabilities"], empty=0.005), texts=_cr_texts
    ),
    K.CR_RELEVANT_SHARE: KindSpec(
        ("input",),
        lambda a: _mean(a.cr()["probabilities"], empty=0.0),
        levels=lambda a: (
            composite.share_levels(ps) if (ps := a.cr()["probabilities"]) else [1.0, 0.0, 0.0, 0.0]
        ),
        texts=_cr_texts,
    ),
    K.KR_NO_FORGETTING: KindSpec(
        ("turns",), lambda a: 1.0 - composite.strongest([t["forgets"] for t in a.kr()], empty=0.0)
    ),
    K.KR_NO_REASKING: KindSpec(
        ("turns",), lambda a: 1.0 - composite.strongest([t["reasks"] for t in a.kr()], empty=0.0)
    ),
    K.KR_RETENTION_LEVEL: KindSpec(
        ("turns",), lambda a: sum(i * q for i, q in enumerate(_kr_level(a))) / 3.0, levels=_kr_level
    ),
}
