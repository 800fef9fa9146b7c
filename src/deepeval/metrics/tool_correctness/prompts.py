"""Prompts of :class:`ToolCorrectnessMetric`'s tool-selection check (our own wording; asked only when
``available_tools`` is given). Bump ``PROMPT_VERSION`` on any change: it feeds the cache key. Override with
``evaluation_template=`` an object with the same static methods."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from deepeval.metrics.delimit import DATA_NOTICE, quote

PROMPT_VERSION = "tool_correctness/2026-1"

#: the System One levels of the tool-selection question, worst first (5 levels, as deepeval 4.3.1 asks)
TOOL_SELECTION_LEVELS = [
    "the tools chosen do not fit the request at all",
    "poor choice: clearly better-suited tools were left unused",
    "mixed: some fitting tools used, some needed ones missed or unfitting ones used",
    "mostly fitting, with a minor omission or an unneeded call",
    "every tool chosen fits the request and none that was needed was left out",
]


def tools_text(tools: Sequence[Any]) -> str:
    """Tools as an indented JSON array (name, description, parameters and output when set)."""
    items = [t.model_dump(mode="json", exclude_none=True) for t in tools]
    return json.dumps(items, indent=2, ensure_ascii=False, default=str)


class ToolCorrectnessTemplate:
    """Prompt builders: ``get_tool_selection_score`` (LLM) and ``tool_selection_question`` (System One)."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_tool_selection_score(user_input: str, tools_called: str, available_tools: str) -> str:
        """Rate how well the agent chose among the available tools; reply ``{"score": 0..1, "reason": "..."}``
        (``ToolSelectionScore``)."""
        return f"""You grade an AI agent's choice of tools for one request. Judge only the choice (which tools it
picked among those available), not how it used them or whether its final answer was right.

Scale:
- 1.0: every tool it called suits the request and no available tool that was clearly needed was left out;
- 0.75: mostly suitable, with one minor omission or one unneeded call;
- 0.5: mixed: some suitable tools used, but others needed were missed or unsuitable ones were called;
- 0.25: poor: clearly better-suited tools were available and ignored;
- 0.0: the tools called have nothing to do with what the request needs.
Read each tool's name and description to know what it is for.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one to three sentences naming the tools>"}}

{DATA_NOTICE}

The request:
{quote("REQUEST", user_input)}

The tools available to the agent:
{quote("DATA", available_tools)}

The tools the agent called:
{quote("DATA", tools_called)}

JSON:"""

    @staticmethod
    def tool_selection_question() -> str:
        """The System One question (the state holds ``input``, ``tools_called`` and ``available_tools``)."""
        return (
            "Given the request in `input`, the tools offered in `available_tools` (name and description) and the "
            "tools the agent called in `tools_called`: how well suited is the agent's choice of tools to the "
            "request? Judge only which tools were chosen, not how they were used."
        )
