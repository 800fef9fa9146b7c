"""Prompts of :class:`StepEfficiencyMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names
and keywords: ``extract_task_from_trace(trace_json)``, ``get_execution_efficiency(task, trace_json_str)``)."""

from __future__ import annotations

from deepeval.metrics.agent_prompts import task_from_trace_prompt
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "step_efficiency/2026-1"

declare_labels("task", "agent trace")


class StepEfficiencyTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_task_from_trace(trace_json: str) -> str:
        return task_from_trace_prompt(trace_json)

    @staticmethod
    def get_execution_efficiency(task: str, trace_json_str: str) -> str:
        """How efficiently the run carried out the task, 0 to 1; reply ``{"score": ..., "reason": ...}``
        (``EfficiencyVerdict``)."""
        return f"""Grade how efficiently an AI agent carried out a task, judging only its steps (tool calls, LLM calls,
retrievals) in the trace: were they all needed, and was the path direct? Redundant, repeated or speculative steps,
detours, re-queries and loops count against it. Do not grade the quality of the result.

Scale: 1.0 every step necessary and the path as short as it could be; 0.75 one minor unneeded step; 0.5 several
unneeded steps or a detour; 0.25 mostly wasted effort; 0.0 highly inefficient (loops, repeated work throughout).

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one to three sentences naming the steps>"}}

{DATA_NOTICE}

{quote("task", task)}

{quote("agent trace", trace_json_str)}

JSON:"""
