"""Prompts of :class:`ArgumentCorrectnessMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds
the cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's
names and keywords: ``generate_verdicts(input, stringified_tools_called)``, ``generate_reason(
incorrect_tool_calls_reasons, input, score)``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.metrics.agent_trace import tools_text
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "argument_correctness/2026-1"

declare_labels("request", "tool calls", "problems")


class ArgumentCorrectnessTemplate:
    """Prompt builders."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def generate_verdicts(input: str, stringified_tools_called: Sequence[Any] | str) -> str:
        """One verdict per tool call: are its arguments right for the request? Reply ``{"verdicts": [{"verdict":
        "yes"|"no", "reason": ...}]}`` (``Verdicts``), one entry per call in order."""
        calls = (
            stringified_tools_called
            if isinstance(stringified_tools_called, str)
            else tools_text(stringified_tools_called)
        )
        return f"""An AI agent called tools to serve a request. For each tool call, in order, decide whether the
arguments it passed (its input parameters) are right for the request: the values the request calls for, nothing
missing that the call needs, nothing made up or unrelated. Judge the arguments, not whether the tool was the best
choice. A call with no input parameters at all is "no".

For each call give "verdict": "yes" or "no", and for "no" a short "reason" naming the wrong or missing argument
(null for "yes").

Reply with JSON only: {{"verdicts": [{{"verdict": "yes" or "no", "reason": ...}}, ...]}}, one entry per tool call.

{DATA_NOTICE}

{quote("request", input)}

{quote("tool calls", calls)}

JSON:"""

    @staticmethod
    def generate_reason(incorrect_tool_calls_reasons: Sequence[str], input: str, score: str) -> str:
        """One or two sentences explaining the score; reply ``{"reason": "..."}``
        (``ArgumentCorrectnessScoreReason``)."""
        problems = "\n".join(f"- {r}" for r in incorrect_tool_calls_reasons if r) or "(none)"
        return f"""An AI agent's tool-call arguments for a request were graded {score} (the share of calls whose
arguments are right). In one or two sentences, explain the score, naming what was wrong in the calls listed as
problems; start with "The score is {score} because".

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("request", input)}

{quote("problems", problems)}

JSON:"""
