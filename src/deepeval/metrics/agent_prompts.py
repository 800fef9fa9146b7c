"""Prompt parts the agent metrics share (our own wording): reading the task and the plan from an agent's trace.
Each metric's template exposes them under deepeval 4.3.1's method names (``extract_task_from_trace``,
``extract_plan_from_trace``); changing them changes every such metric's prompt digest."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

declare_labels("agent trace", "task", "plan")


def task_from_trace_prompt(trace_json: str) -> str:
    """The user's task, read from a trace; reply ``{"task": "..."}`` (``Task``)."""
    return f"""Read the trace of one AI agent run (nested spans: the agent, its LLM calls and tool calls, with their inputs
and outputs) and state the task the user gave the agent: one or two sentences, in the user's terms, the goal rather
than the steps (usually the input of the top span; with several user inputs, the overall task they add up to).

Reply with JSON only: {{"task": "..."}}

{DATA_NOTICE}

{quote("agent trace", trace_json)}

JSON:"""


def plan_from_trace_prompt(trace_json_str: str) -> str:
    """The plan the agent stated, read from a trace; reply ``{"plan": ["step", ...]}`` (``AgentPlan``), an empty list
    when it stated none."""
    return f"""Read the trace of one AI agent run and list the plan the agent itself stated before or while acting: the
steps it said it would take, in its reasoning, thoughts or an explicit plan, in order, one short step per entry.
Only a plan the agent wrote down counts: do not reconstruct one from the actions it took. If it stated none, reply
with an empty list.

Reply with JSON only: {{"plan": ["...", "..."]}} (or {{"plan": []}})

{DATA_NOTICE}

{quote("agent trace", trace_json_str)}

JSON:"""


def plan_lines(agent_plan: str | list[str]) -> str:
    steps = agent_plan.splitlines() if isinstance(agent_plan, str) else list(agent_plan)
    return "\n".join(f"{i}. {step}" for i, step in enumerate(steps, start=1))
