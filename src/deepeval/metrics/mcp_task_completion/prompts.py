"""Prompts of :class:`MCPTaskCompletionMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds
the cache key. Override with ``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "mcp_task_completion/2026-1"

declare_labels("user task", "agent steps", "judgements")


class MCPTaskCompletionTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_task_completion_score(task: str, steps_taken: str) -> str:
        """How completely the user's task was completed as the user saw it, 0 to 1; reply ``{"score", "reason"}``
        (``TaskScore``)."""
        return f"""Grade one exchange between a user and an agent that uses MCP servers: how completely and correctly
was the user's task completed, as the user saw it in the agent's replies? Tool calls and their results count only
when the agent relays them. Scale: 1.0 fully, about 0.67 mostly, about 0.33 partly, 0.0 not at all.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{quote("user task", task)}

{quote("agent steps", steps_taken)}

JSON:"""

    @staticmethod
    def generate_final_reason(final_score: float, success: bool | None, reasons: Sequence[str]) -> str:
        """Why the conversation got its score; reply ``{"reason": "..."}`` (``Reason``)."""
        verdict = "passed" if success else "did not pass"
        listed = "\n".join(f"- {r}" for r in reasons) or "(none)"
        return f"""An MCP agent's conversation was graded {final_score:.2f} for completing the user's tasks (it
{verdict}), the mean of the per-exchange grades explained below. In one or two sentences, say why.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("judgements", listed)}

JSON:"""
