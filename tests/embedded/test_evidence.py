"""The named evidence rules of the per-turn KnowledgeRetention verdict and what each is worth."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import evidence


def test_no_evidence_keeps_and_reads_as_unsure() -> None:
    rule, p = evidence.attrition({})
    assert rule == "none"
    forgets, turns = evidence.DEV_COUNTS["none"]
    assert p == pytest.approx((forgets + 1) / (turns + 2))
    assert 0.3 < p < 0.5


@pytest.mark.parametrize(
    ("feats", "rule"),
    [
        ({"old_value_used": 1.0}, "ignored_correction"),
        ({"swapped": 0.9}, "swapped_roles"),
        ({"reask_type": 0.8}, "reask"),
        ({"reask_sim": 0.9}, "reask"),
        ({"constraint_violation": 1.0}, "broken_constraint"),
        ({"slot_conflict": 1.0}, "slot_conflict"),
        ({"date_conflict": 0.8}, "date_conflict"),
        ({"neg_conflict": 0.8}, "negated_fact"),
        ({"ent_conflict": 0.8}, "name_conflict"),
        ({"num_conflict": 0.8}, "number_conflict"),
    ],
)
def test_each_rule_fires_on_its_own_feature(feats: dict[str, float], rule: str) -> None:
    assert evidence.shown(feats) == [rule]


def test_a_weak_feature_value_shows_no_rule() -> None:
    assert evidence.shown({"num_conflict": 0.4, "reask_sim": 0.8, "date_conflict": 0.5}) == ["none"]


def test_strongest_rule_wins() -> None:
    # a re-ask (13 of 14 on blind-dev) comes before another number (25 of 54)
    rule, p = evidence.attrition({"num_conflict": 0.9, "reask_type": 0.9})
    assert rule == "reask"
    assert p == evidence.worth("reask") > 0.8


def test_a_rule_seen_on_too_few_blind_dev_turns_is_worth_one_half() -> None:
    assert evidence.DEV_COUNTS["ignored_correction"][1] < evidence.MIN_TURNS
    assert evidence.worth("ignored_correction") == 0.5


def test_every_rule_has_blind_dev_counts() -> None:
    assert set(evidence.DEV_COUNTS) == {*evidence.RULES, "none"}


def test_weak_value_conflicts_stay_near_one_half() -> None:
    for rule in ("name_conflict", "number_conflict"):
        assert 0.4 < evidence.worth(rule) < 0.6


def test_slot_conflict_needs_the_same_slot() -> None:
    from deepeval.models.embedded.features import slot_conflict

    assert slot_conflict(["I have 2 kids."], "With your 4 kids, a minivan is a good idea.") == 1.0
    assert slot_conflict(["I live in Leeds."], "Since you live in London, visit the Tower.") == 1.0
    # another number of another thing is a use, not a conflict (a price under the stated budget)
    assert slot_conflict(["I want to pay under £25 a month."], "Lumo's plan is £19 a month.") == 0.0
    # a question states nothing; a denied value is set aside
    assert slot_conflict(["I have 2 kids."], "Do you have 4 kids?") == 0.0
    assert slot_conflict(["I live in Leeds."], "So you live in Leeds, not London.") == 0.0
