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
    as_text,
    distribution_confidence,
    legend_levels,
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
    "as_text",
    "distribution_confidence",
    "legend_levels",
]
