"""The offline memory grader against the third outside attack (issue 42): a value named only inside a longer name,
a later retraction or correction of the value, and one number per subject in a list."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import grading as g

_YORK = "Where will the conference be held?"
_PORTO = "In which city will the new engineering office open?"
_JAVA = "Which language is the frontend written in?"
_VENDOR = "Which observability vendor was picked?"


@pytest.mark.parametrize(
    ("question", "expected", "answer"),
    [
        (_YORK, "York", "The conference will be held in New York."),
        (_YORK, "York", "The conference will be held in Yorkshire."),
        (_PORTO, "Porto", "The new engineering office will open in Porto Alegre."),
        (_PORTO, "Porto", "The new engineering office will open in Porto Velho."),
        (_JAVA, "Java", "The frontend is written in JavaScript."),
        (_JAVA, "Java", "The frontend is written in Java Script."),
        (_VENDOR, "Kestrel Systems", "Kestrel Analytics was picked as the observability vendor."),
    ],
)
def test_a_value_inside_a_longer_different_name_is_not_the_value(question: str, expected: str, answer: str) -> None:
    assert g.grade_detail(question, expected, answer).grade <= 2


@pytest.mark.parametrize(
    ("question", "expected", "answer"),
    [
        (_YORK, "York", "The conference will be held in York."),
        (_YORK, "York", "York will host the conference, New York was too far."),
        (_JAVA, "Java", "The frontend uses Java."),
        (_PORTO, "Porto", "Possibly Porto, the office will open there."),
        ("Which database does the ledger service run on?", "PostgreSQL 16", "The ledger service runs on Postgres 16."),
        ("Who owns the auth service?", "Alice Moreau", "The auth service is owned by Alice Moreau."),
    ],
)
def test_the_value_as_its_own_name_or_short_form_still_scores_5(question: str, expected: str, answer: str) -> None:
    assert g.grade_detail(question, expected, answer).grade == 5


def test_whole_name_matching_is_only_for_the_expected_value() -> None:
    """A subject the question names may be part of a longer name in memory ("Larkfield" in "Larkfield Veterinary
    Hospital"): retrieval keeps the lenient match."""
    assert g.entity_present("York", "held in New York", ["held", "in", "New", "York"])
    assert not g.matching._entity_present("York", "held in New York", ["held", "in", "New", "York"], whole_name=True)
