"""KnowledgeRetention (default eval mode) on a spelling correction used correctly. 84a52b6 fixed
'Dear John Smith, ...'; a shorter confirmation of the same corrected name is still flagged."""

from __future__ import annotations

import pytest

from _support.conversations import PRECISION_FIRST, kr_score
from _support.markers import REGRESSION

pytestmark = REGRESSION


def _kr(last: str) -> float:
    return kr_score(
        "Send it to Jon Smith.",
        "Sure, to Jon Smith.",
        "Sorry, it is spelled John, with an h.",
        last,
    )


def test_short_confirmation_with_the_corrected_name_is_not_forgetting() -> None:
    assert _kr("Sent to John Smith.") == 1.0


@PRECISION_FIRST
def test_control_old_spelling_after_the_correction_is_caught() -> None:
    assert _kr("Sent to Jon Smith.") < 1.0


@pytest.mark.parametrize(
    "ack",
    [
        "Got it: 34, not 43. Start with three runs a week.",
        "Thanks! Being 34 rather than 43 changes little; start with three runs a week.",
    ],
)
def test_acknowledging_a_correction_is_not_forgetting(ack: str) -> None:
    score = kr_score(
        "I am 43 years old and I want a running plan.",
        "Sure, at 43 a gradual plan works well.",
        "Actually I am 34, not 43.",
        ack,
    )
    assert score == 1.0
