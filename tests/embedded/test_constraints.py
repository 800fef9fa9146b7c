"""User constraints (allergies, diets) in retention: honouring one is not forgetting, offering what a diet
excludes is, and a corrected name used as corrected is no name conflict."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import evidence, scorers
from deepeval.models.embedded import features as ft
from deepeval.models.embedded.constraints import constraint_targets, honours, is_suggestion, violates


@pytest.mark.parametrize(
    ("fact", "sentence"),
    [
        ("I am allergic to peanuts.", "Try apple slices with sunflower seed butter, a peanut-free option."),
        ("I am allergic to peanuts.", "This bar is made without peanuts."),
        ("I don't eat pork.", "The stew comes with no pork at all."),
        ("I am allergic to peanuts.", "Try a nut-free granola bar."),  # "nut" heads "peanut"
    ],
)
def test_honouring_a_constraint(fact: str, sentence: str) -> None:
    targets = constraint_targets(fact)
    assert honours(targets, sentence) is True
    assert violates(targets, sentence) is False


@pytest.mark.parametrize(
    ("fact", "sentence", "violated"),
    [
        ("I am vegan.", "How about a juicy steak with butter, Bob?", True),
        ("I am vegan.", "How about a chickpea curry with rice, Bob?", False),
        ("I am vegetarian.", "Why not try the beef burger?", True),
        ("I keep halal.", "What about a bacon sandwich?", True),
        ("I am allergic to peanuts.", "Would you like peanuts?", False),  # a polite offer may be a check
        ("I am vegan.", "Do you eat fish at all?", False),  # an information question offers nothing
        ("I am vegan.", "How about a vegan butter croissant?", False),
    ],
)
def test_a_diet_conflicts_with_named_foods_offered_as_suggestions(
    fact: str, sentence: str, violated: bool
) -> None:
    assert violates(constraint_targets(fact), sentence) is violated


def test_is_suggestion() -> None:
    assert is_suggestion("How about a steak?") is True
    assert is_suggestion("Bob, why not try sushi?") is True
    assert is_suggestion("How old is she?") is False


def test_peanut_free_option_is_no_negation_conflict_and_scores_low() -> None:
    facts = ["My name is Priya.", "I am allergic to peanuts."]
    msg = "Try apple slices with sunflower seed butter, a peanut-free option."
    feats = ft.retention_features(facts, msg, "Suggest a snack.")
    assert (feats["neg_conflict"], feats["constraint_violation"]) == (0.0, 0.0)
    # no explicit evidence: keeps (the no-evidence worth on blind-dev, under 0.5)
    assert scorers.turn_probabilities(facts, msg, "Suggest a snack.")["attrition"] == evidence.worth("none")


def test_vegan_offered_steak_is_flagged_and_curry_is_not() -> None:
    facts = ["My name is Bob.", "I am vegan."]
    user = "What should I cook tonight?"
    steak = ft.retention_features(facts, "How about a juicy steak with butter, Bob?", user)
    curry = ft.retention_features(facts, "How about a chickpea curry with rice, Bob?", user)
    assert (steak["constraint_violation"], curry["constraint_violation"]) == (1.0, 0.0)
    assert steak["has_question"] == 0.0  # an offer, not a question that could re-ask
    p_steak = scorers.turn_probabilities(facts, "How about a juicy steak with butter, Bob?", user)[
        "attrition"
    ]
    p_curry = scorers.turn_probabilities(facts, "How about a chickpea curry with rice, Bob?", user)[
        "attrition"
    ]
    # a broken constraint is seen on few blind-dev turns: its worth leans on the fitted model, so the steak is flagged
    assert p_steak > 0.5 > p_curry == evidence.worth("none")


def test_a_name_that_extends_the_corrected_name_is_no_conflict() -> None:
    feats = ft.retention_features(["It's spelled John, with an h."], "Dear John Smith, ...")
    assert (feats["ent_conflict"], feats["msg_ent_new"]) == (0.0, 0.0)
    other = ft.retention_features(["My name is John Smith."], "Dear John Brown, thanks for writing.")
    assert other["msg_ent_new"] == 1.0  # a different surname is still a new name
