"""Prompts of :class:`PlanQualityMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names
and keywords)."""

from __future__ import annotations

from deepeval.metrics.agent_prompts import plan_from_trace_prompt, plan_lines, task_from_trace_prompt
from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote

PROMPT_VERSION = "plan_quality/2026-1"

declare_labels("task", "plan", "agent trace")


class PlanQualityTemplate:
    """Prompt builders: ``extract_task_from_trace``, ``extract_plan_from_trace``, ``evaluate_plan_quality``."""

    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def extract_task_from_trace(trace_json: str) -> str:
        return task_from_trace_prompt(trace_json)

    @staticmethod
    def extract_plan_from_trace(trace_json_str: str) -> str:
        return plan_from_trace_prompt(trace_json_str)

    @staticmethod
    def evaluate_plan_quality(user_task: str, agent_plan: str) -> str:
        """How good the plan is for the task, 0 to 1; reply ``{"score": ..., "reason": ...}``
        (``PlanQualityScore``)."""
        return f"""Grade the plan an AI agent wrote for a task, as a plan: would carrying it out accomplish the task? A good
plan covers every requirement and prerequisite, has only necessary steps, in a sensible order, each specific enough
to act on. Judge the plan itself, not how it was carried out.

Scale: 1.0 excellent (complete, necessary, ordered, actionable); 0.75 good with a minor gap; 0.5 adequate but
flawed (a missing requirement or a vague or redundant step); 0.25 weak; 0.0 inadequate or unrelated to the task.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one to three sentences naming the steps>"}}

{DATA_NOTICE}

{quote("task", user_task)}

{quote("plan", plan_lines(agent_plan))}

JSON:"""
