"""KnowledgeRetention on the embedded judge (default eval mode): which assistant turns keep a stated fact and
which forget, re-ask or contradict it (1.0 = every fact kept)."""

from __future__ import annotations

import pytest

from _support.conversations import PRECISION_FIRST, kr_score
from _support.markers import REGRESSION
from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, Turn

pytestmark = REGRESSION


HEAD = [
    Turn(
        role="user",
        content="I'm flying from Chicago to Tokyo on May 2 with my husband, and our budget is $4,000.",
    ),
    Turn(role="assistant", content="Chicago to Tokyo on May 2 for two, $4,000 budget. Noted."),
    Turn(role="user", content="Which airline should we pick?"),
]


def _kr(last: str) -> float:
    turns = [*HEAD, Turn(role="assistant", content=last)]
    return KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns))


@pytest.mark.parametrize(
    "question",
    [
        "Would you prefer a nonstop flight, or is one stop fine?",
        "Do you want to fly into Narita or Haneda?",
    ],
)
def test_clarifying_a_new_detail_is_not_forgetting(question: str) -> None:
    assert _kr(question) == 1.0


def test_reasking_the_travel_date_is_forgetting() -> None:
    assert _kr("When do you want to travel?") < 1.0


def test_control_reasking_the_budget_is_forgetting() -> None:
    assert _kr("What's your budget?") == 0.5


def test_changed_amount_in_a_compound_fact_is_caught() -> None:
    """The encoder alone is unsure of this turn (P ~0.46): it is marked unsure and counts by its P, below 1.0."""
    turns = [
        Turn(role="user", content="I have two kids and a budget of $1,500."),
        Turn(role="assistant", content="Got it."),
        Turn(role="user", content="Plan a weekend for us."),
        Turn(
            role="assistant",
            content="With your $5,000 budget, a resort weekend for you and your two kids works.",
        ),
    ]
    assert KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns)) < 1.0


# ----------------------------------------------------------------------------------------------------------
# KnowledgeRetention on the default (embedded) judge. A two-turn conversation: the user states a fact, the
# assistant answers; 1.0 = the answer keeps the fact, 0.0 = it forgets or contradicts it.


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


# ----------------------------------------------------------------------------------------------------------
# KnowledgeRetention (default eval mode, embedded judge) on offers that break a stated dietary constraint.
# After 84a52b6 vegan/vegetarian/kosher/celiac/shellfish offers are caught; these two are not.


def _diet_kr(first: str, last: str) -> float:
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
    assert _diet_kr(first, breaks_it) < _diet_kr(first, keeps_it)


def test_control_kosher_pork_offer_is_caught() -> None:
    first = "My name is Bob and I keep kosher."
    assert _diet_kr(first, "Try the pork chops, Bob.") < _diet_kr(first, "Try the roast chicken, Bob.")


def test_nut_free_offer_keeps_a_peanut_allergy() -> None:
    score = kr_score(
        "My name is Priya and I am allergic to peanuts.",
        "Nice to meet you, Priya.",
        "Suggest a snack.",
        "Try a nut-free granola bar, Priya.",
    )
    assert score == 1.0


# ----------------------------------------------------------------------------------------------------------
# KnowledgeRetention (default eval mode) on a spelling correction used correctly. 84a52b6 fixed 'Dear John
# Smith, ...'; a shorter confirmation of the same corrected name is still flagged.


def _correction_kr(last: str) -> float:
    return kr_score(
        "Send it to Jon Smith.",
        "Sure, to Jon Smith.",
        "Sorry, it is spelled John, with an h.",
        last,
    )


def test_short_confirmation_with_the_corrected_name_is_not_forgetting() -> None:
    assert _correction_kr("Sent to John Smith.") == 1.0


def test_control_old_spelling_after_the_correction_is_caught() -> None:
    """Unsure on the encoder alone (P ~0.46): counted by its P, so below 1.0, not rounded to keeping."""
    assert _correction_kr("Sent to Jon Smith.") < 1.0


@pytest.mark.parametrize(
    "ack",
    [
        "Got it: 34, not 43. Start with three runs a week.",
        "Thanks! Being 34 rather than 43 changes little; start with three runs a week.",
    ],
)
def test_acknowledging_a_correction_is_not_forgetting(ack: str) -> None:
    score = kr_score(
        "I am 43 years old and I want a running plan.",
        "Sure, at 43 a gradual plan works well.",
        "Actually I am 34, not 43.",
        ack,
    )
    assert score == 1.0


# ----------------------------------------------------------------------------------------------------------
# KnowledgeRetention (default eval mode, embedded judge) on a user's occupation. Name and city in the same
# user turn are tracked (re-asks and a wrong city are caught), and so is the occupation.


def _occupation_kr(last: str) -> float:
    return kr_score(
        "Hi, I am Marco, I live in Milan and I work as a nurse.",
        "Nice to meet you, Marco!",
        "Can you recommend a weekend activity?",
        last,
    )


@pytest.mark.parametrize(
    "last",
    [
        "What do you do for a living?",
        "As a teacher, you might enjoy a quiet museum.",  # unsure on the encoder alone: counted by its P
    ],
)
def test_occupation_reask_or_contradiction_is_caught(last: str) -> None:
    assert _occupation_kr(last) < 1.0


@PRECISION_FIRST
def test_control_wrong_city_is_caught() -> None:
    assert _occupation_kr("Since you are in Rome, visit the Colosseum.") == 0.5
