"""Prompts of :class:`SummarizationMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the cache
key. Override by passing ``evaluation_template=`` a class with the same methods; each is called by keyword with the
arguments it names (a template written for deepeval 4.3.1 gets its keywords: ``summary_claims``, ``original_text``,
``contradictions``, ``redundancies``, ``questions``, ``score`` as ``"0.50"``).

The truths of the original text and the claims of the summary are extracted with faithfulness' prompts (the shared
claim machinery; 4.3.1 borrows faithfulness' templates too)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list
from deepeval.metrics.faithfulness.prompts import FaithfulnessTemplate

PROMPT_VERSION = "summarization/2026-1"

ALIGNMENT_RULES = """For every claim of the summary, in order, write a reason of a few words (for "no", say what the
original says instead), then the verdict:
- "yes": the original text states it, or it follows from it directly;
- "no": the original says something that cannot be true at the same time as the claim (another number, date, name or
  outcome; the opposite claim). Hedged wording ("may have", "possibly") is not a contradiction;
- "idk": the original does not say it (the summary adds information).
Use only the original text, never what you know yourself."""

ALIGNMENT_EXAMPLE = """Example. Original facts: ["The Arlo ferry has run since 1962.", "Coastlink operates it."]
Claims: ["The ferry has run since 1962.", "The ferry is run by the city.", "The ferry is popular with tourists."]
Reply: {"verdicts": [{"reason": "stated", "verdict": "yes"}, {"reason": "the original says Coastlink operates it",
"verdict": "no"}, {"reason": "the original does not mention tourists", "verdict": "idk"}]}"""


class SummarizationTemplate:
    """Prompt builders: ``generate_truths`` and ``generate_claims`` (faithfulness' prompts), ``generate_questions``,
    ``generate_answers``, ``generate_alignment_verdicts`` and ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    generate_truths = staticmethod(FaithfulnessTemplate.generate_truths)
    generate_claims = staticmethod(FaithfulnessTemplate.generate_claims)

    @staticmethod
    def generate_questions(text: str, n: int) -> str:
        """``n`` closed questions the original text answers with yes; reply ``{"questions": [...]}``."""
        return f"""Write {n} closed yes/no questions about the main points of a text.

Each question must be answerable from the text alone, and the text's answer must be "yes". Ask about what matters
most in the text (its main facts, outcomes, numbers and names), one point per question, each standalone.

Reply with JSON only, in this form: {{"questions": ["first question?", "second question?"]}}

{DATA_NOTICE}

{quote("text", text)}"""

    @staticmethod
    def generate_answers(questions: Sequence[str], text: str) -> str:
        """Per question, "yes" when the text holds enough to answer it, else "no"; reply ``{"answers": [...]}``."""
        return f"""For each question, say whether a text holds enough information to answer it.

Answer "yes" when the text states what is needed to answer the question, "no" when it does not (the topic is
missing, or the text is too vague to answer). Use only the text, never what you know yourself.

Reply with JSON only, one answer per question in the same order, in this form: {{"answers": ["yes", "no"]}}

{DATA_NOTICE}

{quote("text", text)}

The questions, as a JSON array ({len(questions)} items):
{quote_list("questions", questions)}

Reply with exactly {len(questions)} answers."""

    @staticmethod
    def generate_alignment_verdicts(claims: Sequence[str], truths: Sequence[str]) -> str:
        """One verdict per claim of the summary against the original's facts; reply
        ``{"verdicts": [{"reason", "verdict": "yes|no|idk"}]}``."""
        return f"""Judge whether each claim of a summary agrees with the facts of its original text.

{ALIGNMENT_RULES}

{ALIGNMENT_EXAMPLE}

Reply with JSON only, one entry per claim in the same order.

{DATA_NOTICE}

The facts of the original text, as a JSON array ({len(truths)} items):
{quote_list("facts", truths)}

The claims of the summary, as a JSON array ({len(claims)} items):
{quote_list("claims", claims)}

Reply with exactly {len(claims)} entries."""

    @staticmethod
    def generate_reason(
        score: float, alignment_score: float, coverage_score: float, judged: Mapping[str, Any]
    ) -> str:
        """A short explanation of the score. ``judged`` holds the claims with their alignment verdicts and the
        assessment questions with the answers from the original and from the summary. Reply ``{"reason": "..."}``."""
        return f"""Explain a summarization score in two or three sentences.

The score is the lower of two: alignment (the share of the summary's claims the original text states; "no" claims
contradict it, "borderline" ones add what the original does not say) and coverage (of the questions the original
answers, the share the summary answers too). Name what lowers the score: contradicted or added claims and questions
the summary cannot answer, quoting briefly; praise the summary when the score is 1.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("data", json.dumps(dict(judged), ensure_ascii=False, indent=1))}

Alignment {alignment_score:.2f}, coverage {coverage_score:.2f}: the score is {score:.2f}."""
