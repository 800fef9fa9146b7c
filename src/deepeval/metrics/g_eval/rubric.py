"""``Rubric`` and the rules on GEval's definition: criteria or steps, rubric ranges, the score range.

Facts from deepeval 4.3.1 (the messages are its wording, so code that matches them keeps working):

* ``Rubric(score_range=(start, end), expected_outcome=...)``: integers, both in 0..10, ``start <= end``
  (pydantic ``ValidationError``, a ``ValueError``);
* rubrics are sorted by their start; two ranges that share a score are refused (``ValueError: Overlapping score
  ranges: ...``);
* the score range is (first start, last end), (0, 10) without a rubric; a score ``s`` normalises to
  ``(s - low) / (high - low)``.

**ours:** ``rubric=[]`` is refused (deepeval treats it as no rubric: an empty list given on purpose is more likely
a bug than a wish for 0-10), and so is a rubric whose whole range is one score (deepeval divides by zero when it
normalises), and a blank ``expected_outcome``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, field_validator

DEFAULT_SCORE_RANGE = (0, 10)


class Rubric(BaseModel):
    """One band of the score range and what a test case scoring in it looks like."""

    score_range: tuple[int, int]
    expected_outcome: str

    @field_validator("score_range")
    @classmethod
    def _range_inside_0_10(cls, value: tuple[int, int]) -> tuple[int, int]:
        start, end = value
        if not (0 <= start <= 10 and 0 <= end <= 10):
            raise ValueError("Both Rubric's 'score_range' values must be between 0 and 10 inclusive.")
        if start > end:
            raise ValueError("Rubric's 'score_range' start must be less than or equal to end.")
        return value

    @field_validator("expected_outcome")
    @classmethod
    def _outcome_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("Rubric's 'expected_outcome' must not be blank.")
        return value

    @property
    def midpoint(self) -> float:
        """The band's middle score (its value when System One picks it as a level)."""
        return (self.score_range[0] + self.score_range[1]) / 2


def validate_criteria_and_evaluation_steps(
    criteria: str | None, evaluation_steps: Sequence[str] | None
) -> None:
    """Raise ``ValueError`` unless a non-blank ``criteria`` or a non-empty ``evaluation_steps`` is given."""
    if criteria is None and evaluation_steps is None:
        raise ValueError("Either 'criteria' or 'evaluation_steps' must be provided.")
    if criteria is not None and (not isinstance(criteria, str) or not criteria.strip()):
        raise ValueError("Criteria provided cannot be an empty string.")
    if evaluation_steps is not None:
        if isinstance(evaluation_steps, str) or len(evaluation_steps) == 0:
            raise ValueError(
                "'evaluation_steps' must not be an empty list. Either omit evaluation steps or include a "
                "non-empty list of steps."
            )
        if not all(isinstance(s, str) and s.strip() for s in evaluation_steps):
            raise ValueError("every evaluation step must be a non-blank string")


def sorted_rubric(rubric: Sequence[Rubric] | None) -> list[Rubric] | None:
    """The rubric sorted by range start, None when none is given.

    Raises:
        ValueError: an empty list, overlapping ranges, or a rubric spanning a single score.
        TypeError: an item that is not a :class:`Rubric`.
    """
    if rubric is None:
        return None
    if isinstance(rubric, Rubric) or not isinstance(rubric, Sequence):
        raise TypeError(f"rubric must be a list of Rubric, got {type(rubric).__name__}")
    if len(rubric) == 0:
        raise ValueError(
            "rubric must hold at least one Rubric; leave it out (None) for the default 0-10 range"
        )
    for item in rubric:
        if not isinstance(item, Rubric):
            raise TypeError(f"rubric must be a list of Rubric, got an item of type {type(item).__name__}")
    ordered = sorted(rubric, key=lambda r: r.score_range[0])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if a.score_range[1] >= b.score_range[0]:
                raise ValueError(f"Overlapping score ranges: {a.score_range} and {b.score_range}")
    low, high = ordered[0].score_range[0], ordered[-1].score_range[1]
    if low == high:
        raise ValueError(
            f"the rubric covers the single score {low}: a score range needs two ends to normalise"
        )
    return ordered


def score_range(rubric: Sequence[Rubric] | None) -> tuple[int, int]:
    """(lowest, highest) score: the rubric's ends, or (0, 10)."""
    if not rubric:
        return DEFAULT_SCORE_RANGE
    return rubric[0].score_range[0], rubric[-1].score_range[1]


def format_rubric(rubric: Sequence[Rubric] | None) -> str | None:
    """One line per band, ``"7-10: outcome"`` (``"5: outcome"`` for a single score); None without a rubric."""
    if not rubric:
        return None
    lines = []
    for r in rubric:
        start, end = r.score_range
        band = f"{start}" if start == end else f"{start}-{end}"
        lines.append(f"{band}: {r.expected_outcome}")
    return "\n".join(lines)


def normalise(raw: float, low: int, high: int) -> float:
    """``(raw - low) / (high - low)``: the judge's score on the metric's range as a score in [0, 1]."""
    return (float(raw) - low) / (high - low)
