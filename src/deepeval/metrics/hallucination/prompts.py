"""Prompts of :class:`HallucinationMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; each method is called by
keyword with the arguments it names."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote, quote_list
from deepeval.metrics.hallucination.pipeline import PIPELINE

declare_labels(*PIPELINE.labels)  # the template also works on its own, before the metric class exists

PROMPT_VERSION = "hallucination/2026-1"

#: what each verdict means (the verdict prompt's rules)
VERDICT_RULES = """For every context document, in order, write a reason of a few words (for "no", say what the
document says instead), then the verdict:
- "yes": the output agrees with the document: nothing in the output conflicts with it. An output that leaves out
  details of the document, or does not mention it at all, still agrees;
- "no": the output says something that cannot be true at the same time as the document (another number, date, name
  or outcome; the opposite claim).
Take each document as true; never use what you know yourself."""

VERDICTS_EXAMPLE = """Example. Contexts: ["The Arlo ferry has run since 1962.", "The ferry carries up to 300 cars."]
Output: "The Arlo ferry started in 1965."
Reply: {"verdicts": [{"reason": "the context says 1962, the output 1965", "verdict": "no"}, {"reason": "the output
says nothing about capacity", "verdict": "yes"}]}"""


def _row(index: int, judged: Mapping[str, Any]) -> dict[str, Any]:
    """One context document as the reason prompt shows it: its number, verdict, the judge's reason (else, for a
    contradicted document, its opening words) and P(agrees) from a decision model; the full text costs tokens."""
    row: dict[str, Any] = {"document": index, "verdict": judged.get("verdict")}
    if judged.get("reason"):
        row["reason"] = judged["reason"]
    elif judged.get("verdict") != "yes":  # what the output contradicts is what the reason must name
        row["opening"] = str(judged.get("context", ""))[:100]
    if judged.get("p_yes") is not None:
        row["p_agrees"] = judged["p_yes"]
    return row


class HallucinationTemplate:
    """Prompt builders: ``generate_verdicts`` (one call judging the output against every context document) and
    ``generate_reason``. Replies: ``Verdicts`` and ``HallucinationScoreReason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(contexts: Sequence[str], actual_output: str) -> str:
        """One yes/no verdict per context document; reply ``{"verdicts": [{"reason", "verdict"}]}``."""
        return f"""Judge whether an output agrees with each of a list of context documents, or contradicts it.

{VERDICT_RULES}

{VERDICTS_EXAMPLE}

Reply with JSON only, one entry per context document in the same order.

{DATA_NOTICE}

The context documents, as a JSON array ({len(contexts)} items):
{quote_list("contexts", contexts)}

The output:
{quote("output", actual_output)}

Reply with exactly {len(contexts)} entries."""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each context document with its verdict, who decided it
        and, from a decision model, P(agrees). Reply ``{"reason": "..."}``."""
        return f"""Explain a hallucination score in two or three sentences.

You get each context document with its verdict ("yes" the output agrees with it, "no" the output contradicts it)
and, where a decision model judged it, its probability of agreeing. The score is the share of documents the output
agrees with: 1 means no contradiction, and higher is better. Name what the output contradicts, quoting briefly, or
say that it contradicts nothing when the score is 1. Mention a probability only when it shows the decision was
uncertain.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged contexts", json.dumps([_row(k, j) for k, j in enumerate(judged, start=1)], ensure_ascii=False))}

The score is {score:.2f}."""
