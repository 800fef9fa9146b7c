"""System One questions of :class:`GoalAccuracyMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

hybrid: two 5-level questions per exchange over ``{"task", "steps_taken"}``; system_one: a yes/no question (weight
2) and two 5-level questions over the turns (role, content, tools called): ``(2 P + E1/4 + E2/4) / 4``."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.goal_accuracy import names
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "goal_accuracy-q/2026-1"

GOAL_LEVELS = ["not achieved", "weak attempt", "partially achieved", "mostly achieved", "fully achieved"]
PLAN_LEVELS = [
    "no plan",
    "weak or fragmented plan, rarely followed",
    "partial plan, partly followed",
    "clear plan, mostly followed",
    "complete plan, fully followed",
]


class GoalAccuracyQuestions:
    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def goal_judgement() -> str:
        return "How fully and correctly do the assistant replies in `steps_taken` achieve the user's goal in `task`, as the user saw them?"

    @staticmethod
    def plan_judgement() -> str:
        return (
            "How clear and complete is the assistant's plan in `steps_taken` (its replies and tool calls) for the "
            "user's goal in `task`, and how closely does it follow it?"
        )

    @staticmethod
    def whole_metric() -> list[WeightedQuestion]:
        return [
            WeightedQuestion(
                "every_goal",
                2.0,
                NoulQuestion(
                    instructions=(
                        "Is every goal the user states in `turns` fully and correctly achieved by the assistant turns "
                        "that follow it, as the user saw them?"
                    ),
                    kind=names.EVERY_GOAL,
                ),
                "every user goal is achieved",
            ),
            WeightedQuestion(
                "goal_level",
                1.0,
                ScoreQuestion(
                    instructions="Across `turns`, how fully and correctly do the assistant's replies achieve the goals the user states?",
                    levels=list(GOAL_LEVELS),
                    kind=names.GOAL_LEVEL,
                ),
                "how fully the goals are achieved",
            ),
            WeightedQuestion(
                "plan_level",
                1.0,
                ScoreQuestion(
                    instructions=(
                        "Across `turns`, how clear and complete is the assistant's plan (its `tools_called` included) "
                        "for each user goal, and how closely does it follow it?"
                    ),
                    levels=list(PLAN_LEVELS),
                    kind=names.PLAN_LEVEL,
                ),
                "how well the assistant planned and followed its plan",
            ),
        ]
