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
        ("- Sunscreen\n- Swimsuit\n- A hat", ["Sunscreen, Swimsuit, A hat."]),
        ("Pack these:\n1. Sunscreen\n2. A hat\n\nHave fun.", ["Pack these: Sunscreen, A hat.", "Have fun."]),
        ("Intro. Items to pack:\n* Sunscreen\n* A hat", ["Intro.", "Items to pack: Sunscreen, A hat."]),
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
def test_a_run_of_bare_items_is_one_statement(text: str, statements: list[str]) -> None:
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
