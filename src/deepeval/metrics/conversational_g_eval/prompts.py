"""Prompts of :class:`ConversationalGEval` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` a subclass of :class:`ConversationalGEvalTemplate`; methods are
called with the keywords they name, as deepeval 4.3.1 calls them: ``generate_evaluation_steps(parameters,
criteria)``, ``generate_evaluation_results(evaluation_steps, test_case_content, turns, parameters, rubric)`` and our
``generate_reason(evaluation_steps, test_case_content, parameters, score, score_range, rubric)`` (hybrid mode).

``turns`` is the list of per-turn dicts (the turn fields named by ``evaluation_params``); ``test_case_content`` is
the conversation, quoted: the turns as one JSON array between data markers, then each conversation-level field.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE
from deepeval.metrics.g_eval.prompts import GEvalTemplate

PROMPT_VERSION = "conversational_g_eval/2026-1"


class ConversationalGEvalTemplate:
    """Prompt builders of ConversationalGEval (see the module docstring)."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_evaluation_steps(parameters: str, criteria: str) -> str:
        """Turn the criteria into 3-4 steps for a conversation; reply ``{"steps": [...]}`` (``Steps``)."""
        return f"""You are preparing to grade conversations between a user and an AI assistant on their \
{parameters}. Turn-level fields (content, role, retrieval context, tools called) belong to each turn; \
conversation-level fields (scenario, expected outcome, context...) belong to the whole conversation. Write 3 or 4 \
short evaluation steps that a grader can follow to apply the criteria below to each turn and to the conversation \
as a whole.

Criteria:
{criteria}

Reply with JSON only, of the form {{"steps": ["first step", "second step", ...]}}."""

    @staticmethod
    def generate_evaluation_results(
        evaluation_steps: str,
        test_case_content: str,
        parameters: str,
        rubric: str | None = None,
        turns: list[dict[str, Any]] | None = None,
    ) -> str:
        """Score the conversation from 0 to 10; reply ``{"reason": "...", "score": n}`` (``ReasonScore``)."""
        rubric_block = f"\n\nRubric:\n{rubric}" if rubric else ""
        guide = "the rubric and the evaluation steps" if rubric else "the evaluation steps"
        return f"""Grade a conversation between a user and an AI assistant by following {guide}.

Evaluation steps:
{evaluation_steps}{rubric_block}

Give a whole number from 0 (the conversation fails the criteria completely) to 10 (it meets them fully). The \
reason names the concrete strengths and faults in the {parameters} that led to the score, in one or two \
sentences, without stating the score itself. Conversation-level fields apply to the whole conversation: do not \
fault a turn for not repeating them.

{DATA_NOTICE}

The conversation ({parameters}):
{test_case_content}

Reply with JSON only: {{"reason": "<why>", "score": <whole number from 0 to 10>}}"""

    generate_reason = staticmethod(GEvalTemplate.generate_reason)
