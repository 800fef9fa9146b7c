"""Test-case construction errors name the real problem (REFERENCE §1)."""

from __future__ import annotations

import pytest

from _support.markers import REGRESSION
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION


def test_unknown_field_is_ignored_as_deepeval_does() -> None:
    tc = LLMTestCase(input="q", actual_outptu="a")
    assert tc.actual_output is None


def test_field_given_in_both_spellings_says_so() -> None:
    with pytest.raises(TypeError) as info:
        LLMTestCase(input="q", actual_output="a", actualOutput="b")
    msg = str(info.value)
    assert "unknown field" not in msg
    assert "actualOutput" in msg
