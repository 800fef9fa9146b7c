"""Prompts of :class:`RoleAdherenceMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override by passing ``evaluation_template=`` a class with the same methods; like deepeval 4.3.1, each
method is called by keyword with the arguments it names (``extract_out_of_character_response_verdicts(turns, role)``;
a ``generate_reason(score, role, out_of_character_responses)`` written for deepeval gets the out-of-character
messages)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.turns import json_lines
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "role_adherence/2026-2"

declare_labels("role", "judged turns")


class RoleAdherenceTemplate:
    """Prompt builders: ``extract_out_of_character_response_verdicts``, ``generate_reason``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_out_of_character_response_verdicts(turns: Sequence[Mapping[str, Any]], role: str) -> str:
        """The assistant turns that break the role; reply ``{"verdicts": [{"index", "reason"}]}``
        (``OutOfCharacterResponseVerdicts``)."""
        numbered = [{"index": i, **t} for i, t in enumerate(turns)]
        return f"""An AI assistant was told to play a role. Find the assistant turns where it breaks that role.

A turn breaks the role when its persona, tone, knowledge or behaviour contradicts the role description, or when it
drops the role because a user pushed it to. Judge only turns whose "role" is "assistant"; user turns are context.
For each turn that breaks the role give its "index" (as listed) and a short reason; list nothing when every
assistant turn stays in character.

Reply with JSON only: {{"verdicts": [{{"index": 3, "reason": "..."}}]}}

{DATA_NOTICE}

The role the assistant plays:
{quote("role", role)}

{quote("conversation", json_lines(numbered))}"""

    @staticmethod
    def generate_reason(score: float, judged: Sequence[Mapping[str, Any]], role: str) -> str:
        """A short explanation of the score. ``judged`` lists each assistant turn (its index) with its verdict
        (yes: in character). Reply ``{"reason": "..."}`` (``RoleAdherenceScoreReason``)."""
        return f"""Explain a role adherence score in two or three sentences.

The score is the share of the assistant's turns that stay in the role it was given. You get each assistant turn
(its index) with its verdict ("yes" in character, "no" out of character) and the judge's reason. Name the turns that
broke the role and how, or say that the assistant stayed in character throughout when the score is 1.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

The role:
{quote("role", role)}

{quote("judged turns", json.dumps(list(judged), ensure_ascii=False, indent=1))}

The score is {score:.2f}."""
