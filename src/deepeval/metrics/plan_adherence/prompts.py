"""Prompts of :class:`PlanAdherenceMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names
and keywords)."""

from __future__ import annotations

from deepeval.metrics.agent_prompts import plan_from_trace_prompt, plan_lines, task_from_trace_prompt
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "plan_adherence/2026-1"

declare_labels("task", "plan", "agent trace")


class PlanAdherenceTemplate:
    """Prompt builders: ``extract_task_from_trace``, ``extract_plan_from_trace``, ``evaluate_adherence``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_task_from_trace(trace_json: str) -> str:
        return task_from_trace_prompt(trace_json)

    @staticmethod
    def extract_plan_from_trace(trace_json_str: str) -> str:
        return plan_from_trace_prompt(trace_json_str)

    @staticmethod
    def evaluate_adherence(user_task: str, agent_plan: str, execution_trace_json: str) -> str:
        """How strictly the run followed the agent's own plan, 0 to 1; reply ``{"score": ..., "reason": ...}``
        (``PlanAdherenceScore``)."""
        return f"""An AI agent stated a plan for a task and then acted. Grade how strictly its actions in the trace follow
that plan: every planned step should appear, in the planned order, and major actions outside the plan count
against it. Judge obedience to the plan only, not whether the task succeeded or the plan was good.

Scale: 1.0 every step carried out in order and nothing major outside the plan; 0.75 strong adherence with a minor
deviation; 0.5 partial: some steps skipped, reordered or added; 0.25 weak: the plan was mostly ignored; 0.0 none
of the plan was followed.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one to three sentences naming the steps>"}}

{DATA_NOTICE}

{quote("task", user_task)}

{quote("plan", plan_lines(agent_plan))}

{quote("agent trace", execution_trace_json)}

JSON:"""
