"""Prompts of :class:`ToolUseMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the cache
key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names and
keywords)."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "tool_use/2026-1"

declare_labels("user messages", "assistant messages", "tools called", "available tools", "judgements")


def _material(user_input: str, assistant_messages: str, tools_called: str, available_tools: str) -> str:
    return (
        f"{quote('user messages', user_input)}\n\n{quote('assistant messages', assistant_messages)}\n\n"
        f"{quote('tools called', tools_called or '(none)')}\n\n{quote('available tools', available_tools)}"
    )


class ToolUseTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_tool_selection_score(
        user_input: str, assistant_messages: str, tools_called: str, available_tools: str
    ) -> str:
        """How well the tools chosen fit what the user asked, 0 to 1; reply ``{"score", "reason"}``
        (``ToolSelectionScore``)."""
        return f"""Grade one exchange of a conversation on tool selection: were the tools the assistant called the
best-suited ones among those available for what the user asked? Unneeded, redundant or unrelated calls, and an
available tool that was clearly needed but ignored, count against it. Scale: 1.0 perfectly matched, 0.75 mostly
right, 0.5 mixed, 0.25 poor, 0.0 unrelated or unjustified.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(user_input, assistant_messages, tools_called, available_tools)}

JSON:"""

    @staticmethod
    def get_argument_correctness_score(
        user_input: str, assistant_messages: str, tools_called: str, available_tools: str
    ) -> str:
        """How right the arguments of the calls are, 0 to 1; reply ``{"score", "reason"}``
        (``ArgumentCorrectnessScore``)."""
        return f"""Grade one exchange of a conversation on tool arguments: are the arguments the assistant passed in
its tool calls correct, specific and complete for what the user asked and for each tool's definition? Missing,
malformed, generic or unrelated arguments count against it. Scale: 1.0 fully correct, 0.75 mostly correct, 0.5
partly correct, 0.25 poor, 0.0 nonsensical or unrelated.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{_material(user_input, assistant_messages, tools_called, available_tools)}

JSON:"""

    @staticmethod
    def get_tool_selection_final_reason(
        all_scores_and_reasons: str, final_score: float, threshold: float | None
    ) -> str:
        """Why the conversation's tool choices got their grade; reply ``{"reason": "..."}``."""
        return f"""An assistant's tool choices over a conversation were graded per exchange (below); the metric's
final score is {final_score:.2f} (threshold {threshold}). In one or two sentences, explain the tool-choice grades.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("judgements", all_scores_and_reasons or "(none)")}

JSON:"""

    @staticmethod
    def get_tool_argument_final_reason(
        all_scores_and_reasons: str, final_score: float, threshold: float | None
    ) -> str:
        """Why the conversation's tool arguments got their grade; reply ``{"reason": "..."}``."""
        return f"""An assistant's tool-call arguments over a conversation were graded per exchange (below); the metric's
final score is {final_score:.2f} (threshold {threshold}). In one or two sentences, explain the argument grades.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("judgements", all_scores_and_reasons or "(none)")}

JSON:"""
