"""The polarity of the clause around an expected value (grading/polarity.py): each class of operator that denies,
undoes, excludes, bounds or takes back a value, beside its mirror where the same word scopes over something else
and the value stands affirmed (LABELS.md "Memory grade": a negation of the fact is 1, another value in its place 2).
"""

from __future__ import annotations

import pytest

from deepeval.models.embedded import grading as g

_VENDOR = ("Which observability vendor was picked?", "Kestrel Systems")
_REGION = ("Which region will production run in?", "Frankfurt")
_TEAM = ("How many engineers are on the platform team?", "14")
_OWNER = ("Who owns the authentication service?", "Alice Moreau")
_BUDGET = ("What is the monthly cloud budget?", "$52,000")
_CHURN = ("What was last quarter's customer churn?", "2.7%")
_ZONE = ("Which availability zone hosts the replica?", "eu-west-2")

# (class, fact, answer, grade); each not-affirmed answer has an affirmed mirror with the same operator word
CASES = [
    ("negative subject", _VENDOR, "Nobody on the panel picked Kestrel Systems.", 1),
    ("negative subject, exception: affirmed", _VENDOR, "Nobody but Kestrel Systems was picked.", 5),
    ("privative, object", _REGION, "Production will avoid Frankfurt.", 1),
    ("privative, another object: affirmed", _REGION, "Production will avoid Dublin and run in Frankfurt.", 5),
    ("privative, passive subject", _VENDOR, "Kestrel Systems was replaced as the observability vendor.", 1),
    ("privative, active subject: affirmed", _VENDOR, "Kestrel Systems replaced Datadog as the vendor.", 5),
    (
        "privative, long subject phrase",
        _BUDGET,
        "The $52,000 monthly cloud budget was rejected by finance.",
        1,
    ),
    ("privative, phrasal, inflected", _REGION, "The team is steering well clear of Frankfurt.", 1),
    ("privative, split particle", _VENDOR, "We swapped Kestrel Systems out last spring.", 1),
    ("negative implicative", _OWNER, "Alice Moreau stopped owning the authentication service.", 1),
    (
        "negative implicative, negated: affirmed",
        _OWNER,
        "Alice Moreau never stopped owning the authentication service.",
        5,
    ),
    ("exception", _REGION, "Production will run anywhere but Frankfurt.", 1),
    ("exception, negated: affirmed", _REGION, "Production will never run anywhere but Frankfurt.", 5),
    ("exception on a name the slots miss", _ZONE, "The replica can go in every zone except eu-west-2.", 1),
    ("exclusion predicate", _VENDOR, "Kestrel Systems is off the table as the observability vendor.", 1),
    ("exclusion of another: affirmed", _VENDOR, "Datadog is off the table; Kestrel Systems was picked.", 5),
    ("error attribution", _CHURN, "Churn was wrongly reported as 2.7%; it was 3.1%.", 2),
    ("unrealised past", _VENDOR, "Kestrel Systems was supposed to win the review.", 1),
    (
        "predicate after a parenthetical",
        _VENDOR,
        "Kestrel Systems, which the old team liked, was never picked.",
        1,
    ),
    (
        "parenthetical negation, predicate affirms",
        _VENDOR,
        "Kestrel Systems, which nobody expected, was picked.",
        5,
    ),
    ("taking-back tag", _TEAM, "The platform team has 14 engineers, said nobody ever.", 1),
    ("strict bound", _TEAM, "The platform team has fewer than 14 engineers.", 1),
    ("inclusive bound stays a limit", _TEAM, "The platform team has at least 14 engineers.", 5),
    ("only asked", _VENDOR, "Was Kestrel Systems ever confirmed as the vendor?", 1),
    (
        "asked about something else: affirmed",
        _VENDOR,
        "The vendor is Kestrel Systems - did legal sign yet?",
        5,
    ),
    ("self-correction", _BUDGET, "The monthly cloud budget is $52,000 - correction, $25,000.", 2),
    ("tried, then but not", _VENDOR, "Kestrel Systems was evaluated but not picked.", 1),
    (
        "a verb before the value: a later comma ends its clause",
        _REGION,
        "Production will run in Frankfurt, never in Ohio.",
        5,
    ),
    (
        "a main-clause negation stops at 'when'",
        _VENDOR,
        "Nobody complained when Kestrel Systems was picked.",
        5,
    ),
    (
        "opposition verb under a negative subject",
        _VENDOR,
        "No one argued against Kestrel Systems, the vendor we picked.",
        5,
    ),
    (
        "doubt frame without 'that', negated",
        _OWNER,
        "Nobody doubts Alice Moreau owns the authentication service.",
        5,
    ),
    ("doubt frame without 'that'", _OWNER, "Finance doubts Alice Moreau owns the authentication service.", 1),
    (
        "error attribution after the value",
        _OWNER,
        "Alice Moreau was mistakenly named as the owner in the old wiki.",
        1,
    ),
    (
        "proposal, then undone",
        _OWNER,
        "Alice Moreau was put forward as owner, but the nomination was withdrawn.",
        1,
    ),
    (
        "requested, unsettled",
        _BUDGET,
        "A $52,000 monthly cloud budget was requested and still awaits sign-off.",
        1,
    ),
    (
        "requested, then decided: affirmed",
        _BUDGET,
        "A $52,000 monthly cloud budget was requested and approved, pending the memo.",
        5,
    ),
    ("moved away from", _REGION, "Production moved away from Frankfurt last year.", 1),
    ("a number with a decimal point, only asked", _CHURN, "Was churn really 2.7% last quarter?", 1),
    (
        "a denied rival clause fills no slot",
        _BUDGET,
        "The monthly cloud budget is no longer $40,000; it's $52,000 since the review.",
        5,
    ),
    ("denial frame", _TEAM, "Finance disputes that the platform team has 14 engineers.", 1),
    (
        "denial frame over a negation: affirmed",
        _OWNER,
        "Nobody disputes that Alice Moreau owns the authentication service.",
        5,
    ),
]


@pytest.mark.parametrize(("fact", "answer", "grade"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_clause_polarity_decides_whether_a_mentioned_value_is_stated(
    fact: tuple[str, str], answer: str, grade: int
) -> None:
    got = g.grade_detail(fact[0], fact[1], answer)
    assert got.grade == grade, got.reason
