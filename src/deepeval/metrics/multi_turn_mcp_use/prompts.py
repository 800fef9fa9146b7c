"""Prompts of :class:`MultiTurnMCPUseMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "multi_turn_mcp_use/2026-1"

declare_labels("user task", "agent steps", "available primitives", "judgements")


def _material(task: str, steps_taken: str, available_primitives: str) -> str:
    return (
        f"{quote('user task', task)}\n\n{quote('agent steps', steps_taken)}\n\n"
        f"{quote('available primitives', available_primitives)}"
    )


class MultiTurnMCPUseTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_tool_correctness_score(task: str, steps_taken: str, available_primitives: str) -> str:
        """How well the MCP primitives chosen in one exchange fit the user's task, 0 to 1; reply ``{"score",
        "reason"}`` (``ToolScore``)."""
        return f"""Grade one exchange between a user and an agent that uses MCP servers on its choice of MCP tools,
resources and prompts among those available. Judge only which were chosen, not whether they worked: a clearly better
one left unused, and unneeded or unrelated calls, count against it. Scale: 1.0 best choice, about 0.67 reasonable,
about 0.33 poor, 0.0 wrong.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(task, steps_taken, available_primitives)}

JSON:"""

    @staticmethod
    def get_args_correctness_score(task: str, steps_taken: str, available_primitives: str) -> str:
        """How right the arguments of the exchange's MCP calls are, 0 to 1; reply ``{"score", "reason"}``
        (``ArgsScore``)."""
        return f"""Grade the arguments an agent passed in the MCP calls of one exchange: do they fit each primitive's
input schema (required fields present, right names and types, well formed) and carry the values the user's task
calls for? Scale: 1.0 fully correct, about 0.67 mostly correct, about 0.33 mostly incorrect, 0.0 incorrect.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(task, steps_taken, available_primitives)}

JSON:"""

    @staticmethod
    def generate_final_reason(final_score: float, success: bool | None, reasons: Sequence[str]) -> str:
        """Why the conversation got its score; reply ``{"reason": "..."}`` (``Reason``)."""
        verdict = "passed" if success else "did not pass"
        listed = "\n".join(f"- {r}" for r in reasons) or "(none)"
        return f"""An MCP agent's use of its servers over a conversation was graded {final_score:.2f} (it {verdict}):
the smaller of the mean primitive-choice grade and the mean call-correctness grade, explained per exchange below. In
one or two sentences, say why.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("judgements", listed)}

JSON:"""
