"""Share scores of AnswerRelevancy / ContextualRelevancy weighed by the System One model's probabilities
(``share_weight``), and the embedded judge's ramp (examples are ours)."""

from __future__ import annotations

import pytest

from deepeval.metrics._engine.context import Decision
from deepeval.metrics._engine.decisions import share_score, weighted_note
from deepeval.models.embedded import calibrated
from deepeval.models.embedded.judge import get_embedded_judge


class _Ctx:
    def __init__(self, system_one: object) -> None:
        self.system_one = system_one


class _Counting:
    def share_weight(self, probability: float) -> float | None:
        return None


class _Weighing:
    def share_weight(self, probability: float) -> float | None:
        return probability


DECISIONS = {
    "s0": Decision("yes", 0.9, "system_one"),
    "s1": Decision("no", 0.2, "system_one"),
    "s2": Decision("yes", None, "llm"),
}


def test_a_model_without_weights_counts_verdicts() -> None:
    score, weights = share_score(_Ctx(_Counting()), DECISIONS, lambda d: d.verdict == "yes")  # type: ignore[arg-type]
    assert score == pytest.approx(2 / 3) and weights == {}
    score, weights = share_score(_Ctx(None), DECISIONS, lambda d: d.verdict == "yes")  # type: ignore[arg-type]
    assert score == pytest.approx(2 / 3) and weights == {}


def test_a_weighing_model_weighs_its_own_decisions_and_llm_ones_count() -> None:
    score, weights = share_score(_Ctx(_Weighing()), DECISIONS, lambda d: d.verdict == "yes")  # type: ignore[arg-type]
    assert weights == {"s0": 0.9, "s1": 0.2}
    assert score == pytest.approx((0.9 + 0.2 + 1.0) / 3)
    assert weighted_note([{"weight": 0.9}]) and weighted_note([{"verdict": "yes"}]) == ""


def test_embedded_ramp_counts_confident_verdicts_whole_and_unsure_in_part() -> None:
    m = calibrated.share_ramp()
    assert m is not None and 0.0 <= m < 0.5
    judge = get_embedded_judge()
    assert judge.share_weight(1.0 - m) == 1.0 and judge.share_weight(0.995) == 1.0
    assert judge.share_weight(m) == 0.0 and judge.share_weight(0.005) == 0.0
    assert judge.share_weight(0.5) == pytest.approx(0.5)
    ws = [judge.share_weight(p) for p in (0.2, 0.35, 0.5, 0.65, 0.8)]
    assert ws == sorted(ws) and all(w is not None and 0.0 <= w <= 1.0 for w in ws)
