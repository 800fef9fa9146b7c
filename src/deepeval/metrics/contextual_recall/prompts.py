"""Prompts of :class:`ContextualRecallMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; each method is called by
keyword with the arguments it names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.contextual_recall.pipeline import PIPELINE
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote, quote_list

declare_labels(*PIPELINE.labels)  # the template also works on its own, before the metric class exists

PROMPT_VERSION = "contextual_recall/2026-1"

#: what each verdict means (the verdict prompt's rules)
VERDICT_RULES = """For every sentence, in order, write a reason of a few words that names the document(s) it comes
from by number (1 = the first document) with a short quote, then the verdict:
- "yes": what the sentence says can be found in the documents (stated, or following from them directly);
- "no": the documents do not say it (it is missing, or they say something else).
Use only the documents, never what you know yourself."""

VERDICTS_EXAMPLE = """Example. Documents: ["The Arlo ferry has run since 1962.", "Tickets are sold on board."]
Sentences: ["The Arlo ferry started in 1962.", "It carries 300 cars."]
Reply: {"verdicts": [{"reason": "document 1: 'has run since 1962'", "verdict": "yes"}, {"reason": "no document gives
a car capacity", "verdict": "no"}]}"""


def _row(judged: Mapping[str, Any]) -> dict[str, Any]:
    """One sentence as the reason prompt shows it: the sentence, its verdict, the judge's reason when it gave one
    and P(supported) from a decision model (who decided is left out: it costs tokens and says nothing of why)."""
    row: dict[str, Any] = {"sentence": judged.get("sentence"), "verdict": judged.get("verdict")}
    if judged.get("reason"):
        row["reason"] = judged["reason"]
    if judged.get("p_yes") is not None:
        row["p_supported"] = judged["p_yes"]
    return row


class ContextualRecallTemplate:
    """Prompt builders: ``generate_verdicts`` (one call judging every sentence of the expected output) and
    ``generate_reason``. Replies: ``Verdicts`` and ``ContextualRecallScoreReason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(sentences: Sequence[str], retrieval_context: Sequence[str]) -> str:
        """One yes/no verdict per sentence of the expected output against the retrieval context; reply
        ``{"verdicts": [{"reason", "verdict"}]}``."""
        return f"""Judge whether each sentence of an expected answer can be attributed to a set of retrieved documents.

{VERDICT_RULES}

{VERDICTS_EXAMPLE}

Reply with JSON only, one entry per sentence in the same order.

{DATA_NOTICE}

The retrieved documents, as a JSON array ({len(retrieval_context)} items):
{quote_list("nodes", retrieval_context)}

The sentences of the expected answer, as a JSON array ({len(sentences)} items):
{quote_list("sentences", sentences)}

Reply with exactly {len(sentences)} entries."""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]], expected_output: str) -> str:
        """A short explanation of the score. ``judged`` lists each sentence of the expected output with its verdict,
        who decided it and, from a decision model, P(attributable). Reply ``{"reason": "..."}``."""
        return f"""Explain a contextual-recall score in two or three sentences.

You get an expected answer and each of its sentences with its verdict ("yes" the retrieved documents support it,
"no" they do not) and, where a decision model judged it, its probability of being supported. The score is the share
of sentences the retrieved documents support. Say which parts of the expected answer the documents miss, quoting
briefly, or that they cover all of it when the score is 1. Mention a probability only when it shows the decision
was uncertain.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

The expected answer:
{quote("expected answer", expected_output)}

{quote("judged sentences", json.dumps([_row(j) for j in judged], ensure_ascii=False))}

The score is {score:.2f}."""
