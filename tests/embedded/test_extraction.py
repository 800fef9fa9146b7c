"""Deterministic extraction: statements, facts (questions/greetings skipped, corrections supersede), claims."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.models.embedded.extraction import DeterministicExtractor
from deepeval.models.extraction import Extractor


@pytest.fixture(scope="module")
def ex() -> DeterministicExtractor:
    return DeterministicExtractor()


def test_implements_protocol(ex: DeterministicExtractor) -> None:
    assert isinstance(ex, Extractor)
    assert ex.get_model_name() == "deepeval-local-1 deterministic extraction"


def test_statements_split_sentences_and_bullets(ex: DeterministicExtractor) -> None:
    text = (
        "Paris is the capital of France. It has about 2 million people.\n- The Seine runs through it.\n\n---"
    )
    got = asyncio.run(ex.statements(text))
    assert got == [
        "Paris is the capital of France.",
        "It has about 2 million people.",
        "The Seine runs through it.",
    ]
    assert asyncio.run(ex.statements("   ")) == []


def test_questions_and_greetings_state_no_facts(ex: DeterministicExtractor) -> None:
    assert asyncio.run(ex.facts("Hi there! Thanks a lot.", [])) == []
    assert asyncio.run(ex.facts("What is the weather like in Rome?", [])) == []
    assert asyncio.run(ex.facts("Can you help me plan a trip?", [])) == []


def test_declaratives_split_into_facts(ex: DeterministicExtractor) -> None:
    got = asyncio.run(ex.facts("Hello! My name is John and I live in Boston. What should I do today?", []))
    assert got == ["My name is John.", "I live in Boston."]


def test_leading_declarative_of_a_question_is_kept(ex: DeterministicExtractor) -> None:
    got = asyncio.run(ex.facts("I have two kids, what should we do in Rome?", []))
    assert got == ["I have two kids."]


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (
            [
                ("user", "My flight is on the 12th."),
                ("user", "Actually, my flight is on the 14th, not the 12th."),
            ],
            ["My flight is on the 14th."],
        ),
        (
            [
                ("user", "My appointment is on Monday."),
                ("assistant", "Monday then?"),
                ("user", "No, it's Tuesday."),
            ],
            ["My appointment is on Tuesday."],
        ),
        ([("user", "I have 2 kids."), ("user", "I meant 3.")], ["I have 3 kids."]),
        (
            [("user", "My sister Anna lives in Rome."), ("user", "I meant Milan, not Rome.")],
            ["My sister Anna lives in Milan."],
        ),
        ([("user", "I am 32 years old."), ("user", "Actually I'm 34, not 32.")], ["I am 34 years old."]),
        (
            [("user", "My budget is $500 and I live in Rome."), ("user", "Sorry, it is $800.")],
            ["I live in Rome.", "My budget is $800."],
        ),
    ],
)
def test_corrections_supersede(
    ex: DeterministicExtractor, turns: list[tuple[str, str]], expected: list[str]
) -> None:
    assert ex.known_facts(turns) == expected


def test_unrelated_facts_do_not_supersede(ex: DeterministicExtractor) -> None:
    turns = [("user", "I am 32 years old."), ("user", "I work as a nurse in 3 hospitals.")]
    assert ex.known_facts(turns) == ["I am 32 years old.", "I work as a nurse in 3 hospitals."]


def test_fact_updates_reports_superseded(ex: DeterministicExtractor) -> None:
    upd = ex.fact_updates("Actually, it's Tuesday.", [("user", "My appointment is on Monday.")])
    assert upd.superseded == ["My appointment is on Monday."]
    assert upd.added == ["My appointment is on Tuesday."]


def test_claims_split_at_conjunctions_and_prefix_headings(ex: DeterministicExtractor) -> None:
    page = (
        "# User profile\n## Pets\n- Rex, a beagle\n"
        "- The user has a cat named Tom and she adopted him in 2020.\n"
        "John lives in Boston; he works at Google."
    )
    assert asyncio.run(ex.claims(page)) == [
        "Pets: Rex, a beagle",
        "The user has a cat named Tom",
        "she adopted him in 2020",
        "John lives in Boston",
        "he works at Google",
    ]


def test_constraint_targets_and_violations() -> None:
    from deepeval.models.embedded.constraints import constraint_targets, violates

    peanuts = constraint_targets("I'm allergic to peanuts.")
    assert peanuts == frozenset({"peanut"})
    assert constraint_targets("I live in Leeds.") == frozenset()
    assert "beef" in constraint_targets("I am vegetarian.")
    assert "pork" in constraint_targets("I don't eat pork.")
    assert violates(peanuts, "Try a bag of peanuts: they are light and filling.")
    assert not violates(peanuts, "I'll keep your peanut allergy in mind.")
    assert not violates(peanuts, "Try peanut-free trail mix.")
    assert not violates(peanuts, "Would you like peanuts?")
    assert not violates(peanuts, "Pretzels are a good choice.")


def test_bare_prepositional_answer_fills_a_new_slot_not_an_old_one() -> None:
    from deepeval.models.embedded.extraction import DeterministicExtractor

    facts = DeterministicExtractor().known_facts(
        [
            ("user", "I want to book a trip to Lisbon for two people."),
            ("assistant", "Which city are you flying from?"),
            ("user", "From Manchester."),
        ]
    )
    assert facts == ["I want to book a trip to Lisbon for two people.", "From Manchester."]
    moved = DeterministicExtractor().known_facts([("user", "I live in Leeds."), ("user", "Sorry, in York.")])
    assert moved == ["I live in York."]


@pytest.mark.parametrize(
    ("first", "correction", "expected"),
    [
        # a correction of one place in a fact that holds two keeps the other place and replaces the right one
        (
            "I live in Leeds but grew up in York.",
            "Sorry, I grew up in Manchester.",
            ["I live in Leeds but grew up in Manchester."],
        ),
        (
            "I live in Leeds but grew up in York.",
            "Sorry, from Manchester.",
            ["I live in Leeds but grew up in Manchester."],
        ),
        (
            "I grew up in York but now live in Leeds.",
            "Sorry, from Manchester.",
            ["I grew up in Manchester but now live in Leeds."],
        ),
        (
            "I grew up in York but now live in Leeds.",
            "From Manchester.",
            ["I grew up in Manchester but now live in Leeds."],
        ),
        (
            "I grew up in York but now live in Leeds.",
            "Actually I grew up in Manchester.",
            ["I grew up in Manchester but now live in Leeds."],
        ),
        # separate facts: the bare "from X" correction goes to the origin fact, not the most recent place
        (
            "I live in Leeds, but I grew up in York.",
            "Sorry, from Manchester.",
            ["I live in Leeds.", "I grew up in Manchester."],
        ),
        (
            "I'm flying from Boston to Denver on Friday.",
            "Sorry, from Chicago.",
            ["I'm flying from Chicago to Denver on Friday."],
        ),
        (
            "I'm flying from Boston to Denver on Friday.",
            "Sorry, to Chicago.",
            ["I'm flying from Boston to Chicago on Friday."],
        ),
        ("My sister Anna lives in Rome.", "Actually she lives in Milan.", ["My sister Anna lives in Milan."]),
        ("I have 2 dogs and 3 cats.", "Sorry, 4 cats.", ["I have 2 dogs and 4 cats."]),
    ],
)
def test_correction_replaces_the_value_in_its_own_slot(
    ex: DeterministicExtractor, first: str, correction: str, expected: list[str]
) -> None:
    assert ex.known_facts([("user", first), ("user", correction)]) == expected


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # a counted number replaces the number that counts the same thing, not the first number of the fact
        (
            [
                ("user", "I need a party venue for 20 kids, budget £350."),
                ("user", "Actually it'll be 24 kids."),
            ],
            ["I need a party venue for 24 kids, budget £350."],
        ),
        # a bare ordinal with "not the Nth" corrects the day of a date, not another number
        (
            [
                ("user", "The wedding is on 26 June and we have 120 guests."),
                ("user", "The 27th, not the 26th."),
            ],
            ["We have 120 guests.", "The wedding is on 27 June."],
        ),
        # a comparison states no new value: nothing is rewritten
        (
            [("user", "Book 3 nights in Leeds."), ("user", "That's one night too many.")],
            ["Book 3 nights in Leeds.", "That's one night too many."],
        ),
        # a short reply with an unrelated number rewrites no earlier fact
        (
            [("user", "My son Theo is turning 6 on 12 April."), ("user", "1:30 please.")],
            ["My son Theo is turning 6 on 12 April.", "1:30 please."],
        ),
        # values the facts already hold are a restatement, not a correction
        (
            [
                ("user", "My turnover was £38,400."),
                ("user", "I pay £150 a month."),
                ("user", "Scroll up! 38,400."),
            ],
            ["My turnover was £38,400.", "I pay £150 a month."],
        ),
        # emphasis in capitals is no name
        (
            [("user", "A ski trip to Val Thorens."), ("user", "No, it's HIM that has the diabetes.")],
            ["A ski trip to Val Thorens.", "It's HIM that has the diabetes."],
        ),
    ],
)
def test_short_reply_rewrites_only_its_own_slot(
    ex: DeterministicExtractor, turns: list[tuple[str, str]], expected: list[str]
) -> None:
    assert ex.known_facts(turns) == expected


def test_counted_values_fold_plurals_and_hyphenated_counts() -> None:
    from deepeval.models.embedded.extraction import counted_values

    assert counted_values("Book a room for 12 people.") == {"person": {"12"}}
    assert counted_values("I reserved a 4-person room.") == {"person": {"4"}}
    assert counted_values("Books for an 8-year-old reader.") == {"year": {"8"}}
    assert counted_values("She is 11 years old, with 2 kids at $300.") == {"year": {"11"}, "kid": {"2"}}
