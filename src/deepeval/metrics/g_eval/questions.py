"""GEval's System One question (our own wording). Bump ``QUESTION_SET_VERSION`` on any change: it feeds the cache
key. Override with ``question_set=`` an object with the same static method.

One score question per test case (hybrid and system_one modes, REFERENCE §3 for the question format): the
instructions carry the metric author's criteria and steps; the state carries the fields named by
``evaluation_params`` as JSON (``{"input": ..., "actual_output": ...}``), so content cannot forge structure.

Levels (worst -> best) and the score each stands for (:class:`ScoreLevels`):

* with a rubric: one level per band, in order, ``"7-10: <expected outcome>"``; a level stands for its band's
  midpoint;
* without: six levels over the range (0, 2, 4, 6, 8, 10 on 0-10), each described in our words.

The raw score is ``sum(P(level) * value(level))`` over the answer's level probabilities (the expected level
interpolated between level values when a judge gives no probabilities), normalised like the LLM's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.g_eval import names
from deepeval.metrics.g_eval.rubric import Rubric, format_rubric
from deepeval.models.system_one.schema import ScoreAnswer, ScoreQuestion

QUESTION_SET_VERSION = "g_eval-q/2026-1"
QUESTION_ID = "criteria_score"

#: how well the test case meets the criteria, six steps from none to fully (no rubric)
DEFAULT_LEVEL_TEXTS = (
    "does not meet the criteria at all",
    "meets a small part of the criteria",
    "meets some of the criteria but misses much",
    "meets most of the criteria with clear gaps",
    "meets the criteria with minor gaps",
    "fully meets the criteria",
)


@dataclass(frozen=True)
class ScoreLevels:
    """The levels of the score question and the score (on the metric's range) each stands for."""

    texts: tuple[str, ...]
    values: tuple[float, ...]

    def raw_score(self, answer: ScoreAnswer) -> float:
        """``sum(P(i) * value(i))``; the expected level interpolated between values without probabilities."""
        probs = {
            int(i): float(p)
            for i, p in (answer.probabilities or {}).items()
            if 0 <= int(i) < len(self.values)
        }
        total = sum(probs.values())
        if total > 0:
            return sum(self.values[i] * p for i, p in probs.items()) / total
        top = len(self.values) - 1
        level = min(max(float(answer.score), 0.0), float(top))
        lower = int(level)
        if lower >= top:
            return self.values[top]
        frac = level - lower
        return self.values[lower] * (1 - frac) + self.values[lower + 1] * frac


def score_levels(rubric: Sequence[Rubric] | None, score_range: tuple[int, int]) -> ScoreLevels:
    """The levels for ``rubric`` (one per band) or the default six over ``score_range``.

    Raises:
        ValueError: a rubric of more than 10 bands (a System One score question has at most 10 levels).
    """
    if rubric:
        if len(rubric) > 10:
            raise ValueError(
                f"a System One score question has at most 10 levels and the rubric has {len(rubric)} bands; "
                "merge bands or use eval_mode='llm'"
            )
        lines = (format_rubric(rubric) or "").splitlines()
        return ScoreLevels(tuple(lines), tuple(r.midpoint for r in rubric))
    low, high = score_range
    n = len(DEFAULT_LEVEL_TEXTS)
    values = tuple(low + (high - low) * i / (n - 1) for i in range(n))
    return ScoreLevels(DEFAULT_LEVEL_TEXTS, values)


class GEvalQuestions:
    """``criteria_score``: the one question GEval asks System One."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def criteria_score(
        criteria: str | None,
        evaluation_steps: Sequence[str] | None,
        levels: ScoreLevels,
        fields: Mapping[str, Any],
    ) -> WeightedQuestion:
        """The score question over the state ``fields`` (the test case's fields named by ``evaluation_params``)."""
        parts = [
            "Grade the test case in the state (its fields: " + ", ".join(f"`{k}`" for k in fields) + ")."
        ]
        if criteria:
            parts.append(f"Criteria: {criteria}")
        if evaluation_steps:
            parts.append(
                "Steps to follow:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(evaluation_steps, 1))
            )
        parts.append("Choose the level that best describes the test case.")
        question = ScoreQuestion(
            instructions="\n".join(parts),
            levels=list(levels.texts),
            kind=names.CRITERIA_SCORE,
            data={"criteria": criteria or "", "evaluation_steps": list(evaluation_steps or ())},
        )
        return WeightedQuestion(QUESTION_ID, 1.0, question, "how well the test case meets the criteria")
