"""Breaker findings: the embedded memory grader (1-5 scale) on correct answers worded differently from the
expected value. Scale: 5 = correct, 2 = materially wrong (deepeval.memory.judges)."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.memory.judges import EmbeddedMemoryJudge


def _grade(question: str, expected: str, answer: str) -> int:
    return asyncio.run(EmbeddedMemoryJudge().grade(question, expected, answer, [])).score


@pytest.mark.xfail(
    strict=True,
    reason="BUG (memory grader): a correct amount written in words is graded 2 'materially wrong: gives a different "
    "value' ('Fifty-two thousand dollars a month.' for $52,000; 'one thousand five hundred' for 1,500), though "
    "'twelve' for 12 and 'forty percent' for 40% are accepted",
)
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


@pytest.mark.xfail(
    strict=True,
    reason="BUG (memory grader): an equivalent duration in other units ('21 days' for '3 weeks') is graded 2 "
    "'materially wrong'",
)
def test_equivalent_duration_is_correct() -> None:
    assert _grade("How long is the notice period?", "3 weeks", "21 days") >= 4


def test_control_different_amount_is_wrong() -> None:
    assert _grade("What is the monthly cloud budget?", "$52,000", "The budget is $25,000.") <= 2
