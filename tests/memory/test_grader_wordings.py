"""The embedded memory grader (1-5 scale) on correct answers worded differently from the
expected value. Scale: 5 = correct, 2 = materially wrong (deepeval.memory.judges)."""

from __future__ import annotations

import asyncio

import pytest

from _support.markers import REGRESSION
from deepeval.memory.judges import EmbeddedMemoryJudge

pytestmark = REGRESSION


def _grade(question: str, expected: str, answer: str) -> int:
    return asyncio.run(EmbeddedMemoryJudge().grade(question, expected, answer, [])).score


@pytest.mark.parametrize(
    ("expected", "answer"),
    [
        ("$52,000", "Fifty-two thousand dollars a month."),
        ("$52,000", "fifty two thousand dollars."),
        ("1,500", "one thousand five hundred"),
    ],
)
def test_amount_in_words_is_correct(expected: str, answer: str) -> None:
    assert _grade("What is the monthly cloud budget?", expected, answer) >= 4


def test_equivalent_duration_is_correct() -> None:
    assert _grade("How long is the notice period?", "3 weeks", "21 days") >= 4


def test_control_different_amount_is_wrong() -> None:
    assert _grade("What is the monthly cloud budget?", "$52,000", "The budget is $25,000.") <= 2
