"""Prompts of :class:`GoalAccuracyMetric` (our own wording). Bump ``PROMPT_VERSION`` on any change: it feeds the
cache key. Override with ``evaluation_template=`` an object with the same static methods (deepeval 4.3.1's names
and keywords: ``get_accuracy_score(task, steps_taken)``, ``get_plan_evaluation_score(task, steps_taken)``,
``get_final_reason(final_score, threshold, goal_evaluations, plan_evalautions)``)."""

from __future__ import annotations

from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote
from deepeval.metrics.scoring import success_of

PROMPT_VERSION = "goal_accuracy/2026-1"

declare_labels("user goal", "assistant turns", "goal judgements", "step judgements")

_SCALE = "1.0 fully, 0.75 mostly, 0.5 partly, 0.25 a weak attempt, 0.0 not at all"


class GoalAccuracyTemplate:
    PROMPT_VERSION = PROMPT_VERSION

    @staticmethod
    def get_accuracy_score(task: str, steps_taken: str) -> str:
        """Did the assistant's visible replies achieve the user's goal, 0 to 1; reply ``{"score", "reason"}``
        (``GoalScore``)."""
        return f"""Grade one exchange of a conversation: did the assistant's replies, as the user saw them, achieve
what the user wanted, correctly and completely? Tool calls the user did not see count only through what the replies
say. Scale: {_SCALE}.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{quote("user goal", task)}

{quote("assistant turns", steps_taken)}

JSON:"""

    @staticmethod
    def get_plan_evaluation_score(task: str, steps_taken: str) -> str:
        """How clear the assistant's plan for the goal was and how closely it followed it (tools included), 0 to
        1; reply ``{"score", "reason"}`` (``PlanScore``)."""
        return f"""Grade one exchange of a conversation on planning: did the assistant work out a clear, complete plan
for what the user wanted (its steps, including the tools it called), and did it follow that plan? Scale: 1.0
complete plan fully followed, 0.75 clear plan mostly followed, 0.5 partial plan partly followed, 0.25 weak or
fragmented plan rarely followed, 0.0 no plan.

Reply with JSON only: {{"score": <number from 0 to 1>, "reason": "<one or two sentences>"}}

{DATA_NOTICE}

{quote("user goal", task)}

{quote("assistant turns", steps_taken)}

JSON:"""

    @staticmethod
    def get_final_reason(
        final_score: float, threshold: float | None, goal_evaluations: str, plan_evalautions: str
    ) -> str:
        """Why the conversation got its score; reply ``{"reason": "..."}``."""
        verdict = "fails" if success_of(final_score, threshold) is False else "passes"
        return f"""A conversation with an AI assistant was graded {final_score:.2f} for reaching the user's goals
(threshold {threshold}; it {verdict}): the mean of per-exchange goal grades and planning grades, given below. In two
or three sentences, say why, naming the exchanges that cost the most.

Reply with JSON only: {{"reason": "..."}}

{DATA_NOTICE}

{quote("goal judgements", goal_evaluations or "(none)")}

{quote("step judgements", plan_evalautions or "(none)")}

JSON:"""
