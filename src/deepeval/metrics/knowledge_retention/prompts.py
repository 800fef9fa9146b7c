"""Prompts of :class:`KnowledgeRetentionMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds
the cache key. Override by passing ``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.extractor import facts_prompt
from deepeval.metrics.delimit import DATA_NOTICE, quote, quote_list

PROMPT_VERSION = "knowledge_retention/2026-6"

#: How facts that change over the conversation are to be read (used in verdict prompts and System One questions).
CORRECTIONS_RULE = (
    "The facts are listed oldest first. When a later fact corrects or updates an earlier one, the later fact is what "
    "the user now holds true and the earlier one no longer applies: using the corrected value is not forgetting."
)

#: What counts as knowledge attrition in one assistant message (the verdict prompt's rules). "no" comes first and
#: "yes" needs a fact to name: a 1.5B model answered "yes" to every turn of a blind-dev conversation otherwise.
ATTRITION_RULES = """Answer "no" (the message keeps the facts) when it uses them correctly (a price under a stated
budget, the corrected value after a correction), restates or paraphrases them, asks for something the user has not
given yet, asks to confirm a value it restates correctly or to choose between options the user left open, or does
not touch them.
Answer "yes" (knowledge attrition) only when you can name a fact the message goes against: it states a different
value (a name, number, date, place or quantity), asks again for a value a fact already gives, suggests something a
constraint rules out (over the budget, against an allergy, on an excluded day), keeps a value the user has since
corrected, or swaps the roles of two things the user named (sender and receiver, origin and destination)."""

#: Worked examples (ours), part of the constant prefix of the verdict prompt: two of each verdict.
VERDICT_EXAMPLES = """Examples, with the facts ["access: no stairs (wheelchair)", "delivery day: Tuesday 3 March", "crates: 4"]:
"Four crates on Tuesday 3 March, brought in by the ground-floor ramp." -> {"reason": "keeps: crates, day and access
used correctly", "verdict": "no"}
"Should the invoice go to your office?" -> {"reason": "keeps: asks something new", "verdict": "no"}
"Our porters will carry the crates up the two flights of stairs." -> {"reason": "forgets: no stairs, yet plans the
stairs", "verdict": "yes"}
"How many crates should we bring?" -> {"reason": "forgets: crates 4 was given, asked again", "verdict": "yes"}"""


class KnowledgeRetentionTemplate:
    """Prompt builders: ``extract_facts``, ``generate_verdict``, ``generate_reason``.

    Methods are called by keyword with the arguments their signature names (as deepeval 4.3.1 calls them), so a
    subclass written for deepeval works: ``generate_verdict(llm_message, accumulated_knowledge)`` gets the assistant
    message and the facts known so far (a list of ``"topic: value"`` strings); an ``extract_data(user_message,
    previous_turns)`` override replaces the fact extraction (``previous_turns`` as ``{"role", "content"}`` dicts; the
    reply is the same ``Knowledge``: ``{"data": {...}}``, each entry becoming one fact), and
    ``generate_reason(attritions, score)`` gets the attrition reasons and the score as ``"0.50"``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_facts(user_message: str, previous_turns: Sequence[tuple[str, str]]) -> str:
        """Facts stated by one user turn (earlier turns only to resolve references); reply ``Knowledge``:
        ``{"data": {"topic": "value"}, "supersedes": ["topic"]}``."""
        return facts_prompt(user_message, previous_turns)

    @staticmethod
    def generate_verdict(
        llm_message: str, accumulated_knowledge: Sequence[str], user_message: str | None = None
    ) -> str:
        """Does one assistant turn show knowledge attrition? Reply ``{"reason": "...", "verdict": "yes"|"no"}``."""
        last_user = (
            f"The user's message just before it:\n{quote('user message', user_message)}\n\n"
            if user_message
            else ""
        )
        facts, assistant_message = accumulated_knowledge, llm_message
        return f"""Check whether an assistant's message forgets what the user told it earlier in a conversation.

You get the facts the user had stated before the message, the user's message just before it, and the assistant's
message. {CORRECTIONS_RULE} Most messages keep the facts.

{ATTRITION_RULES}

In "reason", write "keeps:" or "forgets:", then the fact at stake and what the message does with it, in a few
words; then give the verdict.

{VERDICT_EXAMPLES}

Reply with JSON only: {{"reason": "...", "verdict": "yes" or "no"}}

{DATA_NOTICE}

Facts the user had stated, oldest first, as a JSON array:
{quote_list("facts", facts, seed=facts[0] if facts else None)}

{last_user}The assistant's message to check:
{quote("assistant message", assistant_message)}"""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
        """A short explanation of the score. ``judged`` lists each checked assistant turn with its verdict
        (``yes`` = attrition), the facts at stake, who decided and P(attrition) when System One decided."""
        return f"""Explain a knowledge-retention score in two or three sentences.

You get each checked assistant turn of a conversation with its verdict ("yes" = it forgot, contradicted or asked
again for something the user had said; "no" = it kept the user's facts) and, where a decision model judged it, the
probability of attrition. The score is the share of checked turns without attrition. Name what was forgotten or
asked again, or say that the assistant kept every fact when the score is 1. Mention a probability only when it
shows the decision was uncertain.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote("judged turns", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
