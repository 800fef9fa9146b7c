"""KnowledgeRetention on the default (embedded) judge. A two-turn conversation: the user states a fact,
the assistant answers; 1.0 = the answer keeps the fact, 0.0 = it forgets or contradicts it."""

from __future__ import annotations

import pytest

from _support.conversations import PRECISION_FIRST, kr_score
from _support.markers import REGRESSION

pytestmark = REGRESSION


@pytest.mark.parametrize(
    ("fact", "answer"),
    [
        ("I'm allergic to peanuts.", "Since you can't have peanuts, try sunflower seed butter."),
        ("I'm allergic to shellfish.", "Since you can't eat shellfish, order the grilled chicken."),
    ],
)
def test_restating_a_constraint_keeps_it(fact: str, answer: str) -> None:
    assert kr_score(fact, answer) == 1.0


@pytest.mark.parametrize(
    ("fact", "answer"),
    [
        pytest.param("I have a dog named Max.", "How is your cat doing?", marks=PRECISION_FIRST),
        pytest.param("I have two sons.", "How are your daughters doing?", marks=PRECISION_FIRST),
        ("I don't have a car.", "Just drive your car there; parking is free."),
    ],
)
def test_contradicted_fact_is_caught(fact: str, answer: str) -> None:
    assert kr_score(fact, answer) == 0.0


def test_controls() -> None:
    """Held up: a kept allergy, a kept pet name, and a contradicted ability."""
    assert kr_score("I'm allergic to peanuts.", "Avoid peanuts; sunflower seed butter is a safe swap.") == 1.0
    assert kr_score("I have a dog named Max.", "How is Max doing?") == 1.0
    assert kr_score("I can't swim.", "Swim across the lake to reach the cabin.") == 0.0
