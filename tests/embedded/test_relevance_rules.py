"""Named relevance rules of the embedded judge and the blind recalibration they feed (examples are ours)."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import relevance_rules as rr
from deepeval.models.embedded.calibrated import load_recalibrations, recalibrated


@pytest.mark.parametrize(
    "sentence",
    [
        "Hi there!",
        "Happy gardening!",
        "Thanks for asking!",
        "Let me know if you need more help.",
        "Great question!",
    ],
)
def test_social_sentences(sentence: str) -> None:
    assert rr.is_social(sentence)


@pytest.mark.parametrize(
    "sentence",
    ["The pool opens at 7 am.", "Thanks to the new law, fees fell by 10%.", "Enjoy the view from pier 3."],
)
def test_statements_with_content_are_not_social(sentence: str) -> None:
    assert not rr.is_social(sentence)


def test_filler_and_boilerplate() -> None:
    assert rr.is_filler("Moving house is so stressful, isn't it?")
    assert not rr.is_filler("Rent is due on the 1st of each month.")
    assert rr.is_boilerplate("Home | Shop | Contact us")
    assert rr.is_boilerplate("Brightpay is a trading name of Brightpay Holdings Ltd.")
    assert not rr.is_boilerplate("Transfers arrive within two working days.")


@pytest.mark.parametrize(
    ("question", "statement", "other"),
    [
        ("When does the museum open on Mondays?", "On Fridays it opens at 9 am.", True),
        ("When does the museum open on Mondays?", "On Mondays it opens at 10 am.", False),
        ("How do I install Node on my laptop?", "To uninstall Node, delete its folder.", True),
        ("What does the Alto Plus plan cost?", "Alto Lite costs $10 a month.", True),
        ("What does the Alto Plus plan cost?", "Alto Plus costs $20 a month.", False),
        ("What is a cover letter?", "A CV, by contrast, lists your jobs.", True),
    ],
)
def test_answers_other_variant(question: str, statement: str, other: bool) -> None:
    assert rr.answers_other_variant(question, statement) is other


def test_weak_evidence_is_never_a_confident_no_unless_an_explicit_rule_fired() -> None:
    weak = rr.rule_features("What if these boots don't fit?", "We offer a 30-day full refund.")
    assert weak["weak"] == 1.0 and not any(
        weak[k] for k in ("social", "filler", "boilerplate", "other_variant")
    )
    assert rr.unsure_when_weak(0.1, weak) == 0.26 and abs(2 * 0.26 - 1) < 0.5
    assert rr.unsure_when_weak(0.4, weak) == 0.4
    social = rr.rule_features("What if these boots don't fit?", "Happy hiking!")
    assert rr.unsure_when_weak(0.1, social) == 0.1
    shared = rr.rule_features("What if these boots don't fit?", "Boots that don't fit can be exchanged.")
    assert shared["weak"] == 0.0 and rr.unsure_when_weak(0.1, shared) == 0.1


def test_shipped_recalibration_lowers_social_statements_and_keeps_order() -> None:
    assert set(load_recalibrations()) == {"statement_relevant", "context_statement_relevant"}
    plain = dict.fromkeys(("social", "filler", "boilerplate", "other_variant", "weak"), 0.0)
    ps = [recalibrated("statement_relevant", p, plain) for p in (0.1, 0.3, 0.5, 0.7, 0.9)]
    assert ps == sorted(ps) and ps[0] < ps[-1]
    assert recalibrated("statement_relevant", 0.9, {**plain, "social": 1.0}) < 0.1 < ps[-1]
    assert recalibrated("statement_relevant", 0.9, {**plain, "other_variant": 1.0}) < ps[-1]


@pytest.mark.parametrize(
    ("statement", "best_other", "continues"),
    [
        # the condition repeats "deposit" of the answer, not of the request
        ("The deposit is refunded on return.", "Yes, a deposit of 200 euros is taken at pick-up.", True),
        ("Our vans are all electric.", "Yes, a deposit of 200 euros is taken at pick-up.", False),
        # a word the request already has is no link: it is what the request-overlap features measure
        ("Hire cars can be collected at noon.", "Hire cars need a deposit.", False),
        ("The deposit is refunded on return.", None, False),
    ],
)
def test_continues_answer(statement: str, best_other: str | None, continues: bool) -> None:
    assert rr.continues_answer("Do I need to pay anything for hire cars?", statement, best_other) is continues


def test_weak_context_sentence_beside_others_in_its_node_is_not_floored() -> None:
    weak = rr.rule_features("What if these boots don't fit?", "We offer a 30-day full refund.")
    assert rr.unsure_when_weak(0.1, {**weak, "single": 1.0}) == 0.26
    assert rr.unsure_when_weak(0.1, {**weak, "single": 0.0}) == 0.1


@pytest.mark.parametrize(
    ("statement", "echo"),
    [
        ("What is the refund window for online orders?", True),
        ("what is the refund window for online orders", True),
        ("You are asking what the refund window for online orders is.", True),
        ("You want to know the refund window.", True),
        ("Do you mean the refund window for online orders?", True),
        ("The refund window for online orders is 30 days.", False),  # adds the answer
        ("Online orders have a refund window.", False),  # a statement, not the request given back
        ("Is there a refund window for store orders?", False),  # another question (store)
        ("Thanks!", False),
    ],
)
def test_restates_request(statement: str, echo: bool) -> None:
    assert rr.restates_request("What is the refund window for online orders?", statement) is echo


def test_yes_no_answer_made_of_the_request_words_is_not_an_echo() -> None:
    assert not rr.restates_request(
        "Can I return online orders in store?", "You can return online orders in store."
    )
