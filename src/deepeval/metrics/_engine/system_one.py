"""``system_one`` mode: one request over the raw test case with the metric's weighted questions, and the
deterministic reason built from the answers (REFERENCE §3).

Values: a yes/no question contributes P(yes); a score question with ``n`` levels (worst -> best) contributes
``expected level / (n - 1)`` (``E / 3`` for four levels). ``score = Σ wᵢvᵢ / Σ wᵢ``; with weights 2, 1, 1 that is
``(2·P₁ + P₂ + E/3) / 4``. Strict mode: every question must pass (yes/no: P >= 0.5; score: the top level is the
most probable). A missing answer is an error: this mode has no fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deepeval.errors import ErrorKind, SystemOneError
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion, SystemOneAnswers


@dataclass(frozen=True)
class WeightedQuestion:
    """One whole-metric question: its id, weight, the question sent, and a short label for reasons."""

    id: str
    weight: float
    question: NoulQuestion | ScoreQuestion
    label: str


@dataclass(frozen=True)
class QuestionValue:
    """How one answer scored: value in [0, 1], whether it passes (strict mode), its confidence and description."""

    question: WeightedQuestion
    value: float
    passed: bool
    confidence: float
    probability: float | None  # yes/no questions
    expected_level: float | None  # score questions

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "weight": self.question.weight,
            "value": round(self.value, 4),
            "confidence": round(self.confidence, 4),
            "passed": self.passed,
        }
        if self.probability is not None:
            out["p_yes"] = round(self.probability, 4)
        if self.expected_level is not None:
            out["expected_level"] = round(self.expected_level, 4)
        return out


@dataclass(frozen=True)
class WholeMetricResult:
    raw_score: float
    all_passed: bool
    values: list[QuestionValue]

    @property
    def confidence(self) -> float | None:
        return min((v.confidence for v in self.values), default=None)

    def breakdown(self) -> dict[str, Any]:
        return {
            "questions": {v.question.id: v.as_dict() for v in self.values},
            "weighted_mean": round(self.raw_score, 4),
            "all_passed": self.all_passed,
        }


def evaluate_answers(
    questions: Sequence[WeightedQuestion], answers: SystemOneAnswers, *, model_name: str, metric_name: str
) -> WholeMetricResult:
    """Score the answers (see module docstring).

    Raises:
        SystemOneError: kind ``missing_answer`` when a question has no answer of its type.
    """
    values: list[QuestionValue] = []
    missing: list[str] = []
    for wq in questions:
        q = wq.question
        if isinstance(q, NoulQuestion):
            noul = answers.nouls.get(wq.id)
            if noul is None:
                missing.append(wq.id)
                continue
            p = noul.probability
            values.append(QuestionValue(wq, p, p >= 0.5, noul.confidence, p, None))
        else:
            sc = answers.scores.get(wq.id)
            if sc is None:
                missing.append(wq.id)
                continue
            top = len(q.levels) - 1
            expected = min(max(sc.score, 0.0), float(top))
            values.append(
                QuestionValue(wq, expected / top, sc.top_level == top, sc.confidence, None, expected)
            )
    if missing:
        raise SystemOneError(
            f"{metric_name}: System One model {model_name} gave no answer for {', '.join(missing)}; "
            "system_one mode has no fallback (use eval_mode='hybrid' or 'llm' to let an LLM decide)",
            model=model_name,
            kind=ErrorKind.missing_answer,
        )
    total_weight = sum(v.question.weight for v in values)
    raw = sum(v.question.weight * v.value for v in values) / total_weight if total_weight else 0.0
    return WholeMetricResult(raw, all(v.passed for v in values), values)


def probability_band(p: float) -> str:
    """Verbal band of P(yes)."""
    if p >= 0.9:
        return "clearly yes"
    if p >= 0.65:
        return "probably yes"
    if p >= 0.5:
        return "leaning yes"
    if p > 0.35:
        return "leaning no"
    if p > 0.1:
        return "probably no"
    return "clearly no"


def build_reason(result: WholeMetricResult, final_score: float, *, strict_mode: bool, judge: str) -> str:
    """Deterministic reason: the score, then each question with its band, probability/level and confidence."""
    head = f"The score is {final_score:.2f}: the weighted mean of {len(result.values)} answers from {judge}"
    if strict_mode:
        head += (
            " (strict mode: every question passed)"
            if result.all_passed
            else " (strict mode: not every question passed, so the score is 0)"
        )
    lines = [head + "."]
    for v in result.values:
        wq = v.question
        if v.probability is not None:
            detail = f"{probability_band(v.probability)} (P(yes)={v.probability:.2f}"
        else:
            q = wq.question
            assert isinstance(q, ScoreQuestion) and v.expected_level is not None
            top = len(q.levels) - 1
            nearest = q.levels[round(v.expected_level)]
            detail = f"expected level {v.expected_level:.2f} of {top}, closest to {nearest!r} ("
            detail += f"value {v.value:.2f}"
        lines.append(f"- [weight {wq.weight:g}] {wq.label}: {detail}, confidence {v.confidence:.2f}).")
    return "\n".join(lines)
