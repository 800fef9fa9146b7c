"""Prompts of :class:`ConversationCompletenessMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it
feeds the cache key. Override by passing ``evaluation_template=`` a class with the same methods; like deepeval
4.3.1, each method is called by keyword with the arguments it names (``extract_user_intentions(turns)``,
``generate_verdicts(turns, intention)``; a ``generate_reason(score, incompletenesses, intentions)`` written for
deepeval gets the reasons of the unsatisfied intentions)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.turns import json_lines
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "conversation_completeness/2026-2"

declare_labels("intention", "judged intentions")


def _conversation(turns: Sequence[Mapping[str, Any]]) -> str:
    return quote("conversation", json_lines(turns))


class ConversationCompletenessTemplate:
    """Prompt builders: ``extract_user_intentions``, ``generate_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_user_intentions(turns: Sequence[Mapping[str, Any]]) -> str:
        """What the user wanted; reply ``{"intentions": [...]}`` (``UserIntentions``)."""
        return f"""List what the user wanted to achieve in a conversation with an AI assistant.

Read the user's turns (the assistant's turns only for context). Write each distinct goal or request as one short
sentence starting with "The user wants" (a greeting or small talk is no intention; merge repeats of the same request).
List none when the user asks for nothing.

Reply with JSON only, in this form: {{"intentions": ["The user wants ...", "The user wants ..."]}}

{DATA_NOTICE}

{_conversation(turns)}"""

    @staticmethod
    def generate_verdicts(turns: Sequence[Mapping[str, Any]], intention: str) -> str:
        """One verdict on one intention; reply ``{"reason", "verdict": "yes|no"}``
        (``ConversationCompletenessVerdict``)."""
        return f"""Decide whether an AI assistant satisfied one intention of the user over a whole conversation.

"yes": by the end of the conversation the assistant has fully met it (answered, done or resolved it). "no": the
assistant ignored it, refused it without good cause, or met it only in part. Write a short reason first, then the
verdict.

Reply with JSON only: {{"reason": "...", "verdict": "yes" or "no"}}

{DATA_NOTICE}

The intention:
{quote("intention", intention)}

{_conversation(turns)}"""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each intention with its verdict (yes: satisfied) and,
        from a decision model, P(satisfied). Reply ``{"reason": "..."}`` (``ConversationCompletenessScoreReason``)."""
        return f"""Explain a conversation completeness score in two or three sentences.

The score is the share of the user's intentions that the assistant satisfied by the end of the conversation. You get
each intention with its verdict ("yes" satisfied, "no" not) and the judge's reason. Name the intentions left unmet
and why, or say that every one was met when the score is 1.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged intentions", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
