"""Prompts of :class:`FaithfulnessMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; like deepeval 4.3.1, each
method is called by keyword with the arguments it names (``generate_verdicts(claims, retrieval_context)`` written
for deepeval gets the truths joined by blank lines as ``retrieval_context``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list

PROMPT_VERSION = "faithfulness/2026-1"

#: what each verdict means (the verdict prompt's rules)
VERDICT_RULES = """For every claim, in order, write a reason of a few words, then the verdict:
- "yes": the facts state it, or it follows from them directly;
- "no": the facts say something that cannot be true at the same time as the claim (another number, date, name or
  outcome; the opposite polarity);
- "idk": the facts neither state it nor conflict with it (they are silent on it).
Use only the facts given, never what you know yourself."""

VERDICTS_EXAMPLE = """Example. Facts: ["The Arlo ferry leaves at 9:00 and 15:00.", "Dogs on a lead travel free."]
Claims: ["The ferry leaves at 9:00.", "Dogs pay 4 euros.", "The ferry has a cafe."]
Reply: {"verdicts": [{"reason": "stated", "verdict": "yes"}, {"reason": "the facts say dogs travel free",
"verdict": "no"}, {"reason": "the facts do not mention a cafe", "verdict": "idk"}]}"""


def _limit_words(extraction_limit: int | None) -> str:
    if extraction_limit is None:
        return "every fact it states"
    if extraction_limit <= 1:
        return "its single most important fact"
    return f"its {extraction_limit} most important facts"


class FaithfulnessTemplate:
    """Prompt builders: ``generate_truths``, ``generate_claims``, ``generate_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_truths(retrieval_context: str, extraction_limit: int | None = None) -> str:
        """The facts of the retrieval context; reply ``{"truths": [...]}`` (``Truths``)."""
        return f"""List the facts a reference text states.

Write {_limit_words(extraction_limit)}, each as one standalone sentence that names its subject, as the text says it
(no inference, nothing the text does not say). Leave out headings, formatting and opinions.

Reply with JSON only, in this form: {{"truths": ["first fact", "second fact"]}}

{DATA_NOTICE}

{quote("text", retrieval_context)}"""

    @staticmethod
    def generate_claims(actual_output: str) -> str:
        """The claims of the actual output; reply ``{"claims": [...]}`` (``Claims``)."""
        return f"""List the claims an answer makes.

A claim is one piece of information the answer presents as true, written as a standalone sentence that names its
subject. Split a sentence that states several things; leave out greetings, questions, offers of help and opinions
that assert no fact. Add nothing the answer does not say.

Reply with JSON only, in this form: {{"claims": ["first claim", "second claim"]}}

{DATA_NOTICE}

{quote("text", actual_output)}"""

    @staticmethod
    def generate_verdicts(claims: Sequence[str], truths: Sequence[str]) -> str:
        """One verdict per claim against the facts; reply ``{"verdicts": [{"reason", "verdict": "yes|no|idk"}]}``
        (``Verdicts``)."""
        return f"""Judge whether each claim of an answer agrees with a list of facts.

{VERDICT_RULES}

{VERDICTS_EXAMPLE}

Reply with JSON only, one entry per claim in the same order.

{DATA_NOTICE}

The facts, as a JSON array ({len(truths)} items):
{quote_list("facts", truths)}

The claims, as a JSON array ({len(claims)} items):
{quote_list("claims", claims)}

Reply with exactly {len(claims)} entries."""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each claim with its verdict, who decided it and, from a
        decision model, P(supported). Reply ``{"reason": "..."}`` (``FaithfulnessScoreReason``)."""
        return f"""Explain a faithfulness score in two or three sentences.

You get each claim of an answer with its verdict against the retrieved facts ("yes" agrees, "no" contradicts them,
"borderline" the facts are silent) and, where a decision model judged it, its probability of being supported. The
score is the share of claims that count as faithful. Say why the score is not higher, naming the contradicted claims,
or that nothing contradicts the facts when it is 1. Mention a probability only when it shows the decision was
uncertain.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged claims", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
