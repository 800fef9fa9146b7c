"""KnowledgeRetention on the embedded judge (default eval mode) with a trip-planning chat whose
user states origin, destination, date, companion and budget in one turn."""

from __future__ import annotations

import pytest

from _support.conversations import PRECISION_FIRST
from _support.markers import REGRESSION
from deepeval.metrics import KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, Turn

pytestmark = REGRESSION

HEAD = [
    Turn(
        role="user",
        content="I'm flying from Chicago to Tokyo on May 2 with my husband, and our budget is $4,000.",
    ),
    Turn(role="assistant", content="Chicago to Tokyo on May 2 for two, $4,000 budget. Noted."),
    Turn(role="user", content="Which airline should we pick?"),
]


def _kr(last: str) -> float:
    turns = [*HEAD, Turn(role="assistant", content=last)]
    return KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns))


@pytest.mark.parametrize(
    "question",
    [
        "Would you prefer a nonstop flight, or is one stop fine?",
        "Do you want to fly into Narita or Haneda?",
    ],
)
def test_clarifying_a_new_detail_is_not_forgetting(question: str) -> None:
    assert _kr(question) == 1.0


def test_reasking_the_travel_date_is_forgetting() -> None:
    assert _kr("When do you want to travel?") < 1.0


def test_control_reasking_the_budget_is_forgetting() -> None:
    assert _kr("What's your budget?") == 0.5


@PRECISION_FIRST
def test_changed_amount_in_a_compound_fact_is_caught() -> None:
    turns = [
        Turn(role="user", content="I have two kids and a budget of $1,500."),
        Turn(role="assistant", content="Got it."),
        Turn(role="user", content="Plan a weekend for us."),
        Turn(
            role="assistant",
            content="With your $5,000 budget, a resort weekend for you and your two kids works.",
        ),
    ]
    assert KnowledgeRetentionMetric().measure(ConversationalTestCase(turns=turns)) < 1.0
