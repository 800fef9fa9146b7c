"""Prompts of :class:`ContextualPrecisionMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds
the cache key. Override by passing ``evaluation_template=`` a class with the same methods; each method is called by
keyword with the arguments it names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.contextual_precision.pipeline import PIPELINE
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote, quote_list

declare_labels(*PIPELINE.labels)  # the template also works on its own, before the metric class exists

PROMPT_VERSION = "contextual_precision/2026-1"

#: what each verdict means (the verdict prompt's rules)
VERDICT_RULES = """For every document, in the order given, write a reason of a few words (quote the part that
matters), then the verdict:
- "yes": the document states something that helps arrive at the expected answer (a fact the expected answer
  contains or needs), even if it holds other material too;
- "no": nothing in it helps arrive at the expected answer (another topic, boilerplate, or related facts the expected
  answer does not use).
Judge each document on its own; its rank does not change its verdict."""

VERDICTS_EXAMPLE = """Example. Request: "When did the Arlo ferry start running and who runs it?"
Expected answer: "The Arlo ferry has run since 1962 and is operated by Coastlink."
Documents: ["Coastlink operates the Arlo ferry.", "Ferry tickets can be bought on board.", "Service began in 1962."]
Reply: {"verdicts": [{"reason": "'Coastlink operates' gives the operator", "verdict": "yes"}, {"reason": "about
tickets, not used by the answer", "verdict": "no"}, {"reason": "'began in 1962' gives the start", "verdict": "yes"}]}"""


def _row(rank: int, judged: Mapping[str, Any]) -> dict[str, Any]:
    """One node as the reason prompt shows it: rank, verdict, the judge's reason (else the node's opening words) and
    P(useful) when a decision model gave one; the node's full text is in the verdicts already and costs tokens."""
    row: dict[str, Any] = {"rank": rank, "verdict": judged.get("verdict")}
    reason = judged.get("reason")
    row["reason" if reason else "opening"] = reason or str(judged.get("node", ""))[:100]
    if judged.get("p_yes") is not None:
        row["p_useful"] = judged["p_yes"]
    return row


class ContextualPrecisionTemplate:
    """Prompt builders: ``generate_verdicts`` (one call judging every node) and ``generate_reason``. Replies:
    ``Verdicts`` and ``ContextualPrecisionScoreReason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(nodes: Sequence[str], input: str, expected_output: str) -> str:
        """One yes/no verdict per retrieval-context node (ranked); reply ``{"verdicts": [{"reason", "verdict"}]}``."""
        return f"""Judge whether each retrieved document was useful for arriving at the expected answer to a request.

{VERDICT_RULES}

{VERDICTS_EXAMPLE}

Reply with JSON only, one entry per document in the same order.

{DATA_NOTICE}

The request:
{quote("request", input)}

The expected answer:
{quote("expected answer", expected_output)}

The retrieved documents in rank order, as a JSON array ({len(nodes)} items):
{quote_list("nodes", nodes)}

Reply with exactly {len(nodes)} entries."""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]], input: str) -> str:
        """A short explanation of the score. ``judged`` lists each node in rank order with its verdict, who decided
        it and, from a decision model, P(useful). Reply ``{"reason": "..."}``."""
        ranked = [_row(k, j) for k, j in enumerate(judged, start=1)]
        return f"""Explain a contextual-precision score in two or three sentences.

You get a request and the retrieved documents in rank order (rank 1 first), each with its verdict ("yes" useful for
arriving at the expected answer, "no" not useful) and, where a decision model judged it, its probability of being
useful. The score is high when the useful documents rank above the others and 1 when every useful one comes first.
Say which documents by rank lower the score (not useful documents ranked above useful ones), quoting briefly, or
that the ranking is right when the score is 1. Mention a probability only when it shows the decision was uncertain.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

The request:
{quote("request", input)}

{quote("judged nodes", json.dumps(ranked, ensure_ascii=False))}

The score is {score:.2f}."""
