"""How the embedded offline judge answers answer relevancy's whole-metric questions (system_one mode): every
statement of the output (deterministic extraction) scored with ``statement_relevant``, composed by the rules of
:mod:`deepeval.models.embedded.composite`."""

from __future__ import annotations

from typing import Any

from deepeval.metrics.answer_relevancy.names import ADDRESSES_INPUT, ALL_RELEVANT, RELEVANT_SHARE
from deepeval.models.embedded import composite, features, scorers
from deepeval.models.embedded.kind_spec import Asked, KindSpec, Texts, field_text, mean


def compose(fields: dict[str, Any]) -> dict[str, Any]:
    """``{"probabilities": [p per statement], "statements": [...]}`` for input vs actual_output."""
    question = str(composite.field_value(fields, "input") or "")
    output = str(composite.field_value(fields, "actual_output", "actualOutput") or "")
    statements = composite.EXTRACTOR.statements_sync(output)
    answer = "\n".join(statements)
    ps = [scorers.statement_relevant(question, s, answer) for s in statements]
    return {"statements": statements, "probabilities": ps}


def _ps(a: Asked) -> list[float]:
    probabilities: list[float] = a.composed("answer_relevancy", compose)["probabilities"]
    return probabilities


def _texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(field_text(fields, "input"))
    output = fields.get("actual_output", fields.get("actualOutput"))
    out.passages.update(
        (field_text(fields, "input"), *features.sentences_of(output if isinstance(output, str) else ""))
    )


KINDS: dict[str, KindSpec] = {
    ALL_RELEVANT: KindSpec(("input",), lambda a: composite.weakest(_ps(a), empty=0.995), texts=_texts),
    ADDRESSES_INPUT: KindSpec(("input",), lambda a: composite.strongest(_ps(a), empty=0.005), texts=_texts),
    RELEVANT_SHARE: KindSpec(
        ("input",),
        lambda a: mean(_ps(a), empty=1.0),
        levels=lambda a: composite.share_levels(ps) if (ps := _ps(a)) else [0.0, 0.0, 0.0, 1.0],
        texts=_texts,
    ),
}
