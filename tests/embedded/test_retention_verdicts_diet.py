"""KnowledgeRetention (default eval mode, embedded judge) on offers that break a stated dietary
constraint. After 84a52b6 vegan/vegetarian/kosher/celiac/shellfish offers are caught; these two are not."""

from __future__ import annotations

import pytest

from _support.conversations import kr_score
from _support.markers import REGRESSION

pytestmark = REGRESSION


def _kr(first: str, last: str) -> float:
    return kr_score(first, "Nice to meet you, Bob.", "What should I have for dinner?", last)


@pytest.mark.parametrize(
    ("first", "breaks_it", "keeps_it"),
    [
        (
            "My name is Bob and I am lactose intolerant.",
            "How about a big milkshake, Bob?",
            "How about an oat-milk smoothie, Bob?",
        ),
        (
            "My name is Bob and I do not drink alcohol.",
            "A glass of red wine pairs well with dinner, Bob.",
            "A sparkling elderflower soda pairs well with dinner, Bob.",
        ),
    ],
)
def test_offer_breaking_a_dietary_constraint_is_caught(first: str, breaks_it: str, keeps_it: str) -> None:
    assert _kr(first, breaks_it) < _kr(first, keeps_it)


def test_control_kosher_pork_offer_is_caught() -> None:
    first = "My name is Bob and I keep kosher."
    assert _kr(first, "Try the pork chops, Bob.") < _kr(first, "Try the roast chicken, Bob.")


def test_nut_free_offer_keeps_a_peanut_allergy() -> None:
    score = kr_score(
        "My name is Priya and I am allergic to peanuts.",
        "Nice to meet you, Priya.",
        "Suggest a snack.",
        "Try a nut-free granola bar, Priya.",
    )
    assert score == 1.0
