"""The embedded judge's question kinds: kind -> the fields it needs -> its scorer.

Each :class:`~deepeval.models.embedded.kind_spec.KindSpec` says which fields a question of that kind must carry
(``{**state, **question.data}``), which texts its scorer will encode (so that
:func:`deepeval.models.embedded.judge._prefetch` can batch them), how it gives P(yes), and, for kinds with their own
level scale, the level distribution of a score question. :data:`KINDS` holds the shared decision kinds (named in
:mod:`deepeval.models.system_one.kinds`); a metric's own whole-metric kinds live in its folder and reach
:func:`spec_for` through :func:`~deepeval.models.embedded.kind_spec.use_metric_kinds`. The judge (:mod:`deepeval.models.embedded.judge`) looks a kind up with
:func:`spec_for`, checks the fields and shapes the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deepeval.errors import UnsupportedQuestionError
from deepeval.models.embedded import features, scorers
from deepeval.models.embedded.kind_spec import (
    Asked,
    KindSpec,
    Texts,
    expected_share,
    field_text,
    metric_kind,
    metric_kind_names,
)
from deepeval.models.system_one import kinds as K


# -- texts each scorer encodes (best effort: a missing field adds nothing, the scorer reports it) ----------------
def _relevance_texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(field_text(fields, "input"))
    out.passages.update((field_text(fields, "input"), field_text(fields, "statement")))
    out.documents.update((field_text(fields, "node"), field_text(fields, "context")))


def _statement_texts(fields: dict[str, Any], out: Texts) -> None:
    _relevance_texts(fields, out)
    out.passages.update(
        features.elliptical_texts(field_text(fields, "input"), field_text(fields, "statement"))
    )


def _claim_texts(fields: dict[str, Any], out: Texts) -> None:
    out.passages.update((field_text(fields, "claim"), *features.sentences_of(field_text(fields, "source"))))


def _useful_texts(fields: dict[str, Any], out: Texts) -> None:
    _relevance_texts(fields, out)
    expected, node = field_text(fields, "expected_output"), field_text(fields, "node")
    out.passages.update((*features.sentences_of(expected), *features.sentences_of(node)))


def _stated_texts(fields: dict[str, Any], out: Texts) -> None:
    out.passages.update(
        (
            field_text(fields, "fact") or field_text(fields, "question"),
            *features.sentences_of(field_text(fields, "text")),
        )
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


_TURN = ("facts", "assistant_message")

#: the shared decision kinds (a metric's own kinds: its folder's ``embedded.py``, through :func:`spec_for`)
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
    K.CONTEXT_NODE_USEFUL: KindSpec(
        ("input", "expected_output", "node"),
        lambda a: scorers.node_useful(
            str(a.fields["input"]), str(a.fields["expected_output"]), str(a.fields["node"])
        ),
        texts=_useful_texts,
    ),
    K.CLAIM_SUPPORTED: KindSpec(
        ("claim", "source"),
        lambda a: scorers.claim_supported(str(a.fields["claim"]), str(a.fields["source"])),
        texts=_claim_texts,
    ),
    K.CLAIM_CONTRADICTED: KindSpec(
        ("claim", "source"),
        lambda a: scorers.claim_contradicted(str(a.fields["claim"]), str(a.fields["source"])),
        texts=_claim_texts,
    ),
    K.FACT_STATED: KindSpec(("text",), _fact_stated, texts=_stated_texts),
    K.TURN_ATTRITION: KindSpec(_TURN, _turn("attrition")),
    K.TURN_FORGETS: KindSpec(_TURN, _turn("forgets")),
    K.TURN_REASKS: KindSpec(_TURN, _turn("reasks")),
    K.ANSWER_MATCHES_EXPECTED: KindSpec(
        ("question", "expected", "answer"), lambda a: expected_share(a.grade()), levels=Asked.grade
    ),
}


def spec_for(kind: str) -> KindSpec | None:
    """How the embedded judge answers ``kind``: a shared decision kind, else the kind of a declared metric
    (:func:`~deepeval.models.embedded.kind_spec.metric_kind`); None when neither has it."""
    return KINDS.get(kind) or metric_kind(kind)


def supported_kinds() -> frozenset[str]:
    """Every kind :func:`spec_for` answers."""
    return frozenset(KINDS) | metric_kind_names()
