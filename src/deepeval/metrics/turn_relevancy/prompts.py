"""Prompts of :class:`TurnRelevancyMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; like deepeval 4.3.1, each
method is called by keyword with the arguments it names (``generate_verdicts(sliding_window)``, and a
``generate_reason(score, irrelevancies)`` written for deepeval gets the failing windows' ``{"message number",
"reason"}``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.turns import json_lines
from deepeval.metrics.delimit import DATA_NOTICE, quote

PROMPT_VERSION = "turn_relevancy/2026-2"


class TurnRelevancyTemplate:
    """Prompt builders: ``generate_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(sliding_window: Sequence[Mapping[str, Any]]) -> str:
        """One verdict on the window's last assistant turn; reply ``{"reason", "verdict": "yes|no"}``
        (``TurnRelevancyVerdict``)."""
        return f"""Decide whether the last assistant message of a conversation excerpt is relevant.

The excerpt is a list of turns, oldest first. Judge only the LAST assistant message, reading the earlier turns as
context: "yes" when it responds to what the user said (a vague reply to a vague message such as a greeting counts);
"no" only when it ignores the user's message or talks about something unrelated. Write a short reason first, then
the verdict.

Reply with JSON only: {{"reason": "...", "verdict": "yes" or "no"}}

{DATA_NOTICE}

{quote("conversation", json_lines(sliding_window))}"""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each judged assistant turn (its position in the
        conversation) with its verdict (yes: relevant) and, from a decision model, P(relevant). Reply
        ``{"reason": "..."}`` (``TurnRelevancyScoreReason``)."""
        return f"""Explain a turn relevancy score in two or three sentences.

The score is the share of the assistant's replies that are relevant to the conversation so far. You get each judged
reply (its turn number) with its verdict ("yes" relevant, "no" irrelevant), the judge's reason and, where a decision
model judged it, its probability of being relevant. Say which replies were off topic and why, or that every reply was
relevant when the score is 1.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged turns", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
