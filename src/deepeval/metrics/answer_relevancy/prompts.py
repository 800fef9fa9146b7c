"""Prompts of :class:`AnswerRelevancyMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.extractor import statements_prompt
from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list

PROMPT_VERSION = "answer_relevancy/2026-1"


class AnswerRelevancyTemplate:
    """Prompt builders: ``generate_statements``, ``generate_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_statements(actual_output: str) -> str:
        """Split the output into statements; reply ``{"statements": [...]}``."""
        return statements_prompt(actual_output)

    @staticmethod
    def generate_verdicts(input: str, statements: Sequence[str]) -> str:
        """One verdict per statement; reply ``{"verdicts": [{"verdict": "yes|no|idk", "reason": "..."}]}``."""
        return f"""Judge whether each statement of an answer is relevant to the request it answers.

{DATA_NOTICE}

The request:
{quote("request", input)}

The statements, as a JSON array ({len(statements)} items):
{quote_list("statements", statements)}

For every statement, in order, give a verdict:
- "yes": it helps answer the request (directly, or as needed context for the answer);
- "no": it has nothing to do with the request;
- "idk": it is loosely connected but does not really help (supporting detail, an aside, hedging).
Give a short reason for each "no" and "idk".

Reply with JSON only, exactly {len(statements)} verdicts in the same order:
{{"verdicts": [{{"verdict": "yes", "reason": null}}, {{"verdict": "no", "reason": "..."}}]}}"""

    @staticmethod
    def generate_reason(input: str, score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each statement with its verdict, who decided it and
        P(relevant) when a System One model decided. Reply ``{"reason": "..."}``."""
        return f"""Explain an answer-relevancy score in two or three sentences.

{DATA_NOTICE}

The request:
{quote("request", input)}

Each statement of the answer with its verdict ("yes" relevant, "no" irrelevant, "borderline") and, where a
decision model judged it, its probability of being relevant:
{quote("judged statements", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f} (share of statements that are relevant or borderline). Say why the score is not higher,
naming the irrelevant statements, or that every statement is relevant when it is 1. Mention a probability only
when it shows the decision was uncertain.

Reply with JSON only: {{"reason": "The score is {score:.2f} because ..."}}"""
