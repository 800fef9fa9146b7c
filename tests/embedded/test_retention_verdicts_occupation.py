"""KnowledgeRetention (default eval mode, embedded judge) on a user's occupation. Name and city
in the same user turn are tracked (re-asks and a wrong city are caught), and so is the occupation."""

from __future__ import annotations

import pytest

from _support.conversations import PRECISION_FIRST, kr_score
from _support.markers import REGRESSION

pytestmark = REGRESSION


def _kr(last: str) -> float:
    return kr_score(
        "Hi, I am Marco, I live in Milan and I work as a nurse.",
        "Nice to meet you, Marco!",
        "Can you recommend a weekend activity?",
        last,
    )


@pytest.mark.parametrize(
    "last",
    [
        "What do you do for a living?",
        pytest.param("As a teacher, you might enjoy a quiet museum.", marks=PRECISION_FIRST),
    ],
)
def test_occupation_reask_or_contradiction_is_caught(last: str) -> None:
    assert _kr(last) < 1.0


@PRECISION_FIRST
def test_control_wrong_city_is_caught() -> None:
    assert _kr("Since you are in Rome, visit the Colosseum.") == 0.5
