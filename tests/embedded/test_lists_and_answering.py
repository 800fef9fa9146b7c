"""Lists of bare items as one statement; the non-answer checks of statement_relevant."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import answering
from deepeval.models.embedded import features as ft
from deepeval.models.embedded.extraction import DeterministicExtractor

split = DeterministicExtractor().statements_sync


@pytest.mark.parametrize(
    ("text", "statements"),
    [
        ("- Sunscreen\n- Swimsuit\n- A hat", ["Sunscreen", "Swimsuit", "A hat"]),
        (
            "Pack these:\n1. Sunscreen\n2. A hat\n\nHave fun.",
            ["Pack these: Sunscreen.", "Pack these: A hat.", "Have fun."],
        ),
        (
            "Intro. Items to pack:\n* Sunscreen\n* A hat",
            ["Intro.", "Items to pack: Sunscreen.", "Items to pack: A hat."],
        ),
        # bullets that are sentences, and a single item, stay statements of their own
        (
            "- Go to bed at the same time every night.\n- Keep the room dark.",
            ["Go to bed at the same time every night.", "Keep the room dark."],
        ),
        ("Just one:\n- Sunscreen", ["Just one:", "Sunscreen"]),
        (
            "- Seven words are far too many for a fragment\n- Hat",
            ["Seven words are far too many for a fragment", "Hat"],
        ),
    ],
)
def test_each_bare_item_is_a_statement_with_its_lead_in(text: str, statements: list[str]) -> None:
    assert split(text) == statements


@pytest.mark.parametrize(
    ("request_text", "polar"),
    [
        ("Can I bring my bike on the ferry?", True),
        ("Hi, is the pool open today?", True),
        ("What time does the pool open?", False),
        ("My parcel has not arrived.", False),
    ],
)
def test_polar_questions(request_text: str, polar: bool) -> None:
    assert answering.is_polar_question(request_text) is polar


def test_polarity_and_deflection() -> None:
    assert answering.gives_polarity("No, bikes are not allowed.")
    assert answering.gives_polarity("Yes, every coach has Wi-Fi.")
    assert not answering.gives_polarity("Our trains have free Wi-Fi in every carriage.")
    assert answering.is_deflection("I'm not sure, you should check their website.")
    assert answering.is_deflection("Please contact the front desk.")
    assert not answering.is_deflection("The front desk is open until 10pm.")


def test_relevance_features_flag_an_open_yes_no_request() -> None:
    q = "Can I take my scooter on the bus?"
    answer = ft.relevance_features(q, "Yes, folded scooters are allowed on every bus.")
    aside = ft.relevance_features(q, "Our buses have USB chargers at every seat.")
    assert answer["polar_open"] == 0.0
    assert aside["polar_open"] > 0.5 and aside["idf_cov"] < answer["idf_cov"]
    assert ft.relevance_features(q, "I'm not sure, please check the website.")["deflect"] > 0.5


@pytest.mark.parametrize(
    ("statement", "direct"),
    [
        ("Yes, it is.", True),
        ("Correct.", True),
        ("Sorry, no.", True),
        ("That's right.", True),
        ("Of course.", True),
        ("Paris is the capital.", False),
        ("Nobody knows.", False),
    ],
)
def test_direct_replies(statement: str, direct: bool) -> None:
    assert answering.is_direct_reply(statement) is direct


def test_relevance_features_read_short_statements_as_answers_to_the_request() -> None:
    q = "Is Rome the capital of Italy?"
    reply = ft.relevance_features(q, "Yes, it is.")
    assert reply["polar_reply"] == 1.0 and reply["elliptical"] == 1.0
    # a direct reply to a request that is no yes/no question, and a full sentence, are neither
    assert ft.relevance_features("Where is Rome?", "Yes, it is.")["polar_reply"] == 0.0
    sentence = ft.relevance_features(q, "Rome has been the capital of Italy since 1871, after unification.")
    assert sentence["elliptical"] == 0.0 and sentence["frag_fit"] == 0.0
    # after a lead-in, only the item is the elliptical part
    assert ft.elliptical_texts(q, "Pack these: A hat.")[0] == f"{q} A hat."
    swiss = "Which languages are spoken in Switzerland?"
    assert ft.elliptical_fit(swiss, "French") > ft.elliptical_fit(swiss, "Pizza") + 2.0
