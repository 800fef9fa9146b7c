"""How the embedded offline judge answers contextual relevancy's whole-metric questions (system_one mode): every
statement of every retrieved node (deterministic extraction) scored with ``context_statement_relevant`` and every
node with ``context_node_relevant``, composed by the rules of :mod:`deepeval.models.embedded.composite`."""

from __future__ import annotations

from typing import Any

from deepeval.metrics.contextual_relevancy.names import (
    ALL_RELEVANT,
    EVERY_NODE_RELEVANT,
    RELEVANT_SHARE,
)
from deepeval.models.embedded import composite, features, scorers
from deepeval.models.embedded.kind_spec import Asked, KindSpec, Texts, field_text, mean


def compose(fields: dict[str, Any]) -> dict[str, Any]:
    """Per-statement and per-node relevance for input vs retrieval_context."""
    question = str(composite.field_value(fields, "input") or "")
    nodes = composite.context_texts(composite.field_value(fields, "retrieval_context", "retrievalContext"))
    per_node = [(node, s) for node in nodes for s in composite.EXTRACTOR.statements_sync(node)]
    # a statement is ranked among all retrieved sentences, as in the hybrid request
    context = "\n".join(nodes)
    return {
        "statements": [s for _, s in per_node],
        "probabilities": [scorers.context_statement_relevant(question, s, n, context) for n, s in per_node],
        "node_probabilities": [scorers.node_relevant(question, n) for n in nodes if n.strip()],
    }


def _composed(a: Asked, key: str) -> list[float]:
    probabilities: list[float] = a.composed("contextual_relevancy", compose)[key]
    return probabilities


def _texts(fields: dict[str, Any], out: Texts) -> None:
    out.queries.add(field_text(fields, "input"))
    out.passages.add(field_text(fields, "input"))
    for node in composite.context_texts(fields.get("retrieval_context", fields.get("retrievalContext"))):
        out.passages.update(features.sentences_of(node))


KINDS: dict[str, KindSpec] = {
    ALL_RELEVANT: KindSpec(
        ("input",), lambda a: composite.weakest(_composed(a, "probabilities"), empty=0.005), texts=_texts
    ),
    EVERY_NODE_RELEVANT: KindSpec(
        ("input",), lambda a: composite.weakest(_composed(a, "node_probabilities"), empty=0.005), texts=_texts
    ),
    RELEVANT_SHARE: KindSpec(
        ("input",),
        lambda a: mean(_composed(a, "probabilities"), empty=0.0),
        levels=lambda a: (
            composite.share_levels(ps) if (ps := _composed(a, "probabilities")) else [1.0, 0.0, 0.0, 0.0]
        ),
        texts=_texts,
    ),
}
