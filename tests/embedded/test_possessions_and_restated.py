"""Retention slots without values: a constraint said back inside its own prohibition keeps it, a "your X" that
names another pet/child/sibling/partner than the user's, or something the user lacks, conflicts with the facts,
and a question for the occupation re-asks it. Plus the value checks these rest on (money units, echoes)."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import features as ft
from deepeval.models.embedded import possessions
from deepeval.models.embedded.constraints import constraint_targets, honours, violates
from deepeval.models.embedded.slots import asks_occupation


@pytest.mark.parametrize(
    ("fact", "sentence", "violated"),
    [
        ("I'm allergic to peanuts.", "Since you can't have peanuts, try sunflower seed butter.", False),
        ("I'm allergic to shellfish.", "Since you can’t eat shellfish, order the grilled chicken.", False),
        ("I don't eat pork.", "As you don't eat pork, grill chicken thighs.", False),
        # only the restating phrase is dropped: the same target offered after it is still offered
        ("I'm allergic to peanuts.", "You can't have peanuts, so try peanut brittle.", True),
        ("I'm allergic to shellfish.", "Since you can't eat shellfish, go for the lobster roll.", True),
        ("I don't drink alcohol.", "Ask for a ginger beer with lime.", False),  # no alcohol in ginger beer
        ("I don't drink alcohol.", "Ask for a cold beer with lime.", True),
    ],
)
def test_a_restated_constraint_is_kept(fact: str, sentence: str, violated: bool) -> None:
    assert violates(constraint_targets(fact), sentence) is violated


def test_a_restated_constraint_honours_it() -> None:
    targets = constraint_targets("I'm allergic to peanuts.")
    assert honours(targets, "Since you can't have peanuts, try sunflower seed butter.") is True
    assert honours(targets, "Try sunflower seed butter.") is False


def test_owned_lacked_and_presupposed() -> None:
    assert possessions.owned("I have a dog named Max.") == {"dog"}
    assert possessions.owned("I've got two little sisters and my son is 4.") == {"sister", "son"}
    assert possessions.owned("I have a meeting at 4.") == frozenset()
    assert possessions.owned("I have a cat allergy and my dog walker is away.") == frozenset()
    assert possessions.lacked("I don't have a car.") == {"car"}
    assert {"son", "daughter", "children", "kid"} <= possessions.lacked("I have no kids.")
    assert possessions.presupposed("How is your cat doing?") == {"cat", "doing"}


@pytest.mark.parametrize(
    ("facts", "sentence", "expected"),
    [
        (["I have a dog named Max."], "How is your cat doing?", (True, False)),
        (["I have two sons."], "How are your daughters doing?", (True, False)),
        (["I don't have a car."], "Just drive your car there.", (False, True)),
        (["I don't have kids."], "Take your children to the museum.", (False, True)),
        (["I have a dog named Max."], "How is your dog doing?", (False, False)),
        (["I have a son and a daughter."], "Your daughter might like a craft kit.", (False, False)),
        (["I have a cat."], "Do you also have a dog, or just your cat?", (False, False)),
        (["I don't have a car."], "Since you don't have a car, take the bus.", (False, False)),
        (["I live in Leeds."], "How is your cat doing?", (False, False)),  # no pet stated
    ],
)
def test_conflicts(facts: list[str], sentence: str, expected: tuple[bool, bool]) -> None:
    assert possessions.conflicts(facts, sentence) == expected


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What do you do for a living?", True),
        ("What's your occupation?", True),
        ("Nice to meet you! What kind of work do you do?", True),
        ("What do you do?", True),
        ("What do you do on weekends?", False),
        ("What kind of engineering do you do?", False),  # a new detail of a known occupation
    ],
)
def test_asks_occupation(question: str, asks: bool) -> None:
    assert asks_occupation(question) is asks


def test_a_singular_currency_word_is_money() -> None:
    # "for two people" and "under your 900 pound budget" count different things: no number conflict
    facts = ["I want a trip to Lisbon for two people.", "My budget is 900 pounds in total."]
    feats = ft.retention_features(facts, "It comes to 860 pounds, under your 900 pound budget.")
    assert feats["num_conflict"] == 0.0


def test_every_value_echoed_without_conflict_is_an_echo_kept() -> None:
    facts = ["Address the parcel to Hanna Berg."]
    kept = ft.retention_features(facts, "Parcel addressed to Hanna Berg.")
    changed = ft.retention_features(facts, "Parcel addressed to Anna Berg.")
    assert kept["echo_kept"] == pytest.approx(kept["max_sim"])
    assert changed["echo_kept"] == 0.0
