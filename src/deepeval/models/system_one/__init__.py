"""System One models and their question/answer types."""

from deepeval.models.system_one.schema import (
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Questions,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneAnswer,
    SystemOneAnswers,
    SystemOneQuestion,
    distribution_confidence,
)

__all__ = [
    "ChoiceAnswer",
    "ChoiceQuestion",
    "NoulAnswer",
    "NoulQuestion",
    "Questions",
    "ScoreAnswer",
    "ScoreQuestion",
    "SystemOneAnswer",
    "SystemOneAnswers",
    "SystemOneQuestion",
    "distribution_confidence",
]
