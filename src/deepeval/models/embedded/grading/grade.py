"""The 1-5 grade value (:class:`Grade`) and its :class:`ScoreAnswer` form."""

from __future__ import annotations

from dataclasses import dataclass

from deepeval.models.embedded.grading.lexicon import LEVELS_1_TO_5
from deepeval.models.system_one.schema import ScoreAnswer


def _distribution(grade: int, certainty: float) -> dict[int, float]:
    idx = grade - 1
    probs = {i: 0.0 for i in range(5)}
    probs[idx] = certainty
    rest = 1.0 - certainty
    neighbours = [i for i in (idx - 1, idx + 1) if 0 <= i <= 4]
    for i in neighbours:
        probs[i] = rest / len(neighbours)
    return probs


def _answer(grade: int, certainty: float, why: str) -> ScoreAnswer:
    probs = _distribution(grade, certainty)
    expected = sum(i * p for i, p in probs.items())
    from deepeval.models.system_one.schema import distribution_confidence

    return ScoreAnswer(
        score=expected,
        probabilities=probs,
        confidence=distribution_confidence(probs),
        legend=[f"{LEVELS_1_TO_5[grade - 1]} -- {why}"],
    )


@dataclass(frozen=True)
class Grade:
    """A 1-5 grade with the rule that produced it (``reason``) and a certainty in [0, 1]."""

    grade: int
    reason: str
    certainty: float

    def to_score_answer(self) -> ScoreAnswer:
        return _answer(self.grade, self.certainty, self.reason)


def grade_from_score_answer(ans: ScoreAnswer) -> int:
    """Integer grade 1-5 of a 5-level :class:`ScoreAnswer` (the most probable level + 1)."""
    return int(min(4, max(0, ans.top_level))) + 1
