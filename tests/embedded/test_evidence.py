"""The named evidence rules of the per-turn KnowledgeRetention verdict and what each is worth."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import evidence


def test_no_evidence_keeps_and_reads_as_unsure() -> None:
    rule, p = evidence.attrition({})
    assert rule == "none"
    assert p == pytest.approx(41 / 107)  # (40 + 1) / (105 + 2) on blind-dev
    assert p < 0.5


@pytest.mark.parametrize(
    ("feats", "rule"),
    [
        ({"old_value_used": 1.0}, "ignored_correction"),
        ({"swapped": 0.9}, "swapped_roles"),
        ({"reask_type": 0.8}, "reask"),
        ({"reask_sim": 0.9}, "reask"),
        ({"constraint_violation": 1.0}, "broken_constraint"),
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
    # a re-ask (13 of 14 on blind-dev) outweighs another number (40 of 81)
    rule, p = evidence.attrition({"num_conflict": 0.9, "reask_type": 0.9})
    assert rule == "reask"
    assert p == pytest.approx(14 / 16)


def test_a_rule_never_seen_on_blind_dev_is_worth_one_half() -> None:
    assert evidence.DEV_COUNTS["ignored_correction"] == (0, 0)
    assert evidence.worth("ignored_correction") == 0.5


def test_weak_value_conflicts_stay_near_one_half() -> None:
    for rule in ("name_conflict", "number_conflict"):
        assert 0.4 < evidence.worth(rule) < 0.6
