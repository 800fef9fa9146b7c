"""The offline memory grader against the third outside attack (issue 42): a value named only inside a longer name,
a later retraction or correction of the value, and one number per subject in a list."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.memory import MemoryArtifact, evaluate_artifact, parse_manifest
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.models.embedded import grading as g
from deepeval.models.embedded.grading.revision import latest_statement

JUDGE = EmbeddedMemoryJudge()
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
def test_a_value_inside_a_longer_different_name_is_not_the_value(
    question: str, expected: str, answer: str
) -> None:
    assert g.grade_detail(question, expected, answer).grade <= 2


@pytest.mark.parametrize(
    ("question", "expected", "answer"),
    [
        (_YORK, "York", "The conference will be held in York."),
        (_YORK, "York", "York will host the conference, New York was too far."),
        (_JAVA, "Java", "The frontend uses Java."),
        (_PORTO, "Porto", "Possibly Porto, the office will open there."),
        (
            "Which database does the ledger service run on?",
            "PostgreSQL 16",
            "The ledger service runs on Postgres 16.",
        ),
        ("Who owns the auth service?", "Alice Moreau", "The auth service is owned by Alice Moreau."),
    ],
)
def test_the_value_as_its_own_name_or_short_form_still_scores_5(
    question: str, expected: str, answer: str
) -> None:
    assert g.grade_detail(question, expected, answer).grade == 5


def test_whole_name_matching_is_only_for_the_expected_value() -> None:
    """A subject the question names may be part of a longer name in memory ("Larkfield" in "Larkfield Veterinary
    Hospital"): retrieval keeps the lenient match."""
    assert g.entity_present("York", "held in New York", ["held", "in", "New", "York"])
    assert not g.matching._entity_present(
        "York", "held in New York", ["held", "in", "New", "York"], whole_name=True
    )


_OWNER = ("Priya Shah owns the authentication service.", "Who owns the authentication service?", "Priya Shah")
_LEDGER = (
    "The ledger service runs on PostgreSQL 16.",
    "Which database does the ledger service run on?",
    "PostgreSQL 16",
)


def _memory_grade(fact: tuple[str, str, str], memory: str) -> int:
    """The grade of one fact against ``memory`` through evaluate_artifact (retrieval, then the offline grader)."""
    statement, question, expected = fact
    m = parse_manifest({"name": "t", "facts": [{"id": "f", "statement": statement, "question": question,
                                                "expected": expected}]})  # fmt: skip
    r = asyncio.run(evaluate_artifact(m, MemoryArtifact.from_text(memory), judge=JUDGE))
    return r.facts[0].score


@pytest.mark.parametrize(
    ("fact", "memory"),
    [
        (
            _OWNER,
            "Priya Shah owns the authentication service. Update: Priya Shah no longer owns the authentication "
            "service.",
        ),
        (
            _OWNER,
            "Priya Shah owns the authentication service.\nCorrection: that was wrong; Alice Moreau owns it.",
        ),
        (
            _OWNER,
            "Priya Shah owns the authentication service. As of June, Alice Moreau took over the authentication "
            "service.",
        ),
        (_LEDGER, "The ledger service runs on PostgreSQL 16. Scratch that, it runs on MySQL 8."),
    ],
)
def test_a_value_the_memory_later_retracts_or_corrects_is_not_its_answer(fact: tuple[str, str, str],
                                                                        memory: str) -> None:  # fmt: skip
    assert _memory_grade(fact, memory) <= 2


@pytest.mark.parametrize(
    ("fact", "memory"),
    [
        (
            _OWNER,
            "Priya Shah no longer owns the billing service. Priya Shah owns the authentication service.",
        ),
        (
            _OWNER,
            "Alice Moreau owned the authentication service. Update: Priya Shah took over the authentication "
            "service.",
        ),
        (_LEDGER, "The ledger service ran on MySQL 8. Scratch that, it runs on PostgreSQL 16."),
        (_OWNER, "Priya Shah owns the authentication service. Actually the billing team moved to Rust."),
    ],
)
def test_the_latest_statement_of_the_value_wins(fact: tuple[str, str, str], memory: str) -> None:
    assert _memory_grade(fact, memory) == 5


def test_latest_statement_reads_from_the_last_revision_about_the_subject() -> None:
    q = "Who owns the authentication service?"
    assert latest_statement(q, "X owns it. Update: Y took over the authentication service.") == (
        "Update: Y took over the authentication service."
    )
    # a revision cue about another subject (too few of the question's words) leaves the answer whole
    answer = "Priya Shah owns the authentication service. The office moved to Leeds."
    assert latest_statement(q, answer) == answer


_TEAM = "How many engineers are on the platform team?"


@pytest.mark.parametrize(
    ("answer", "grade"),
    [
        ("The platform team has 9 engineers; the data team has 14.", 2),
        ("The platform team has 10 engineers and the mobile team 14.", 2),
        ("The mobile team has 14 engineers, the platform team 10.", 2),
        ("The mobile team has 10 engineers, the platform team 14.", 5),
        ("The data team has 9 engineers; the platform team has 14.", 5),
    ],
)
def test_each_number_binds_to_the_subject_of_its_own_clause(answer: str, grade: int) -> None:
    assert g.grade_detail(_TEAM, "14", answer).grade == grade


def test_a_clause_that_points_back_is_not_another_subject() -> None:
    q = "When is Pepper's daily maropitant due?"
    a = "Perfect. Maropitant 1 mg/kg once daily, and that's due at 8 am, so it's the day team's job really."
    assert g.grade_detail(q, "8 am", a).grade == 5


@pytest.mark.regression
@pytest.mark.parametrize(
    ("fact", "memory", "low"),
    [
        (_PORTO_FACT := ("The new engineering office will open in Porto.", _PORTO, "Porto"),
         "The new engineering office will open in Porto. Update: the Porto plan was cancelled; Lisbon instead.", True),
        (_PORTO_FACT, "The new engineering office will open in Porto. The team likes the food. Update: Porto was "
         "cancelled, Lisbon instead.", True),
        (_LEDGER, "The ledger service runs on PostgreSQL 16. Update: PostgreSQL 16 cancelled, MySQL 8 instead.", True),
        ((_PORTO_FACT[0], _PORTO, "Lisbon"),
         "The new engineering office will open in Porto. Update: the Porto plan was cancelled; Lisbon instead.", False),
    ],
    ids=["cancelled-next-sentence", "cancelled-later", "cancelled-value", "the-new-value"],
)  # fmt: skip
def test_an_update_that_undoes_a_name_stated_before_is_the_latest_statement(
    fact: tuple[str, str, str], memory: str, low: bool
) -> None:
    """break4 H5 (issue 42): "Update: the Porto plan was cancelled; Lisbon instead" names few of the question's
    words, so it was not read as the correction of "will open in Porto"; it undoes the name stated before."""
    got = _memory_grade(fact, memory)
    assert got <= 2 if low else got == 5


def test_a_list_item_under_a_heading_carries_the_heading() -> None:
    """break4 (issue 42): in "## Ledger service / - Database: PostgreSQL 16" the item alone named no service, so
    the probe got the heading line ("Ledger service") as its answer (1); the item's passage now carries the
    heading (which then needs no passage of its own), so the value is found, and a value under another service's
    heading is about that service."""
    memory = "## Ledger service\n- Database: PostgreSQL 16\n## Billing service\n- Owner: Ravi"
    assert [p.text for p in MemoryArtifact.from_text(memory).passages] == [
        "Ledger service: Database: PostgreSQL 16", "Billing service: Owner: Ravi"
    ]  # fmt: skip
    assert _memory_grade(_LEDGER, memory) == 5
    other = "## Billing service\n- Owner: Priya Shah\n## Authentication service\n- Database: MySQL 8"
    assert _memory_grade(_OWNER, other) <= 2
    assert (
        _memory_grade(
            _LEDGER, "## Billing service\n- Database: PostgreSQL 16\n## Ledger service\n- Owner: Ravi"
        )
        <= 2
    )
    ours = "## Billing service\n- Database: MySQL 8\n## Authentication service\n- Owner: Priya Shah"
    assert _memory_grade(_OWNER, ours) == 5


@pytest.mark.regression
@pytest.mark.parametrize(
    ("fact", "memory", "grade"),
    [
        (("Hana Ito chairs the board from June 2026.", "Who chairs the board, and from when?", "Hana Ito, from June 2026"),
         "Hana Ito chairs the board.", 3),
        (("Ravi Patel leads on-call from March 2026.", "Who leads the on-call rotation, and since when?",
          "Ravi Patel, from March 2026"), "Ravi Patel leads the on-call rotation.", 3),
        (("The launch is on 3 March 2027.", "When is the launch?", "3 March 2027"), "The launch is planned.", 1),
        (("The demo is shown in Hall B on 4 May.", "Where and when will the demo be shown?", "Hall B, 4 May"),
         "The demo will be shown in Hall B.", 1),
    ],
    ids=["who-and-from-when", "who-and-since-when", "a-date-only-question", "where-and-when-of-one-thing"],
)  # fmt: skip
def test_a_name_without_the_asked_date_is_a_missing_secondary_attribute(
    fact: tuple[str, str, str], memory: str, grade: int
) -> None:
    """break5 (issue 42): "Who ..., and from when?" asks a name first; retrieval required a value in the passage
    and answered "not in memory" (1) for "Ravi Patel leads the on-call rotation."; LABELS.md: a secondary
    attribute missing is 3. A question asking only a date still needs one."""
    assert _memory_grade(fact, memory) == grade


@pytest.mark.regression
@pytest.mark.parametrize(
    ("memory", "grade"),
    [
        ("Priya Shah joined in May. She owns the authentication service.", 5),
        ("Alice Moreau joined in May. She owns the authentication service.", 2),
    ],
)
def test_a_sentence_opening_with_a_pronoun_is_read_with_the_sentence_before(memory: str, grade: int) -> None:
    """break4 (issue 42): "She owns the authentication service" was retrieved alone, so the memory named nobody
    (1); the sentence before it names the person the pronoun means, right or wrong."""
    assert _memory_grade(_OWNER, memory) == grade
