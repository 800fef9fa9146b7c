"""Prompts of :class:`TaskCompletionMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names:
``extract_task_and_outcome_from_trace``, ``extract_goal_and_outcome``, ``generate_verdict``)."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "task_completion/2026-1"

declare_labels("agent trace", "request", "agent answer", "tools called", "task", "outcome")

_OUTCOME_RULES = """- "task": what the user wanted done, in one sentence, in their terms (the goal, not the steps);
- "outcome": what the agent actually delivered or did, in one to three factual sentences, including what it left
  undone or got wrong. Describe; do not grade."""


class TaskCompletionTemplate:
    """Prompt builders (deepeval 4.3.1's method names and keywords)."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_task_and_outcome_from_trace(trace_json: str) -> str:
        """The task and the outcome, read from an agent's trace; reply ``{"task": "...", "outcome": "..."}``
        (``TaskAndOutcome``)."""
        return f"""Read the trace of one AI agent run (nested spans: the agent, its LLM calls and tool calls, with their
inputs and outputs) and state two things:
{_OUTCOME_RULES}
The task is usually the input of the top span; the outcome is what the spans show was produced.

Reply with JSON only: {{"task": "...", "outcome": "..."}}

{DATA_NOTICE}

{quote("agent trace", trace_json)}

JSON:"""

    @staticmethod
    def extract_goal_and_outcome(input: str, actual_output: str, tools_called_formatted: str) -> str:
        """The task and the outcome, read from the request, the agent's answer and its tool calls; reply
        ``{"task": "...", "outcome": "..."}`` (``TaskAndOutcome``)."""
        return f"""Read one AI agent interaction (the user's request, the tools the agent called, and its final answer)
and state two things:
{_OUTCOME_RULES}

Reply with JSON only: {{"task": "...", "outcome": "..."}}

{DATA_NOTICE}

{quote("request", input)}

{quote("tools called", tools_called_formatted or "[]")}

{quote("agent answer", actual_output)}

JSON:"""

    @staticmethod
    def generate_verdict(task: str, actual_outcome: str) -> str:
        """How fully the outcome achieves the task, 0 to 1; reply ``{"verdict": 0..1, "reason": "..."}``
        (``TaskCompletionVerdict``)."""
        return f"""Grade how completely an AI agent achieved a task, from the task and a description of the outcome.

Give a number from 0 to 1: 1 when the outcome is everything the task asks for; 0 when nothing of it was achieved
(a different result, a refusal, only a plan); in between for the share of the task that was achieved, weighing the
parts by how much the user needed them. Then one or two sentences saying what was achieved and what was not.

Reply with JSON only: {{"verdict": <number from 0 to 1>, "reason": "..."}}

{DATA_NOTICE}

{quote("task", task)}

{quote("outcome", actual_outcome)}

JSON:"""
