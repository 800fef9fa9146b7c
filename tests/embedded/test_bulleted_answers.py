"""AnswerRelevancy on the default (embedded) judge with bulleted answers. REFERENCE §4: statements =
split(actual_output), one verdict each. 1cef4ce read a run of bare bullet items as one statement, so irrelevant
items hid behind relevant ones; each item is now its own statement (with the list's lead-in)."""

from __future__ import annotations

import pytest

from _support.markers import REGRESSION
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION

QUESTION = "What should I pack for a beach trip?"


def _score(output: str) -> float:
    return AnswerRelevancyMetric().measure(LLMTestCase(input=QUESTION, actual_output=output))


def test_prose_with_three_irrelevant_items_scores_low() -> None:
    """Held up: the same four items as sentences: 1 of 4 relevant."""
    assert _score("Your 2019 tax returns. A lawnmower. A printer. Sunscreen.") <= 0.5


def test_bulleted_irrelevant_items_are_not_hidden() -> None:
    assert _score("- Your 2019 tax returns\n- A lawnmower\n- A printer\n- Sunscreen") <= 0.5


def test_lead_in_list_with_irrelevant_items_is_not_perfect() -> None:
    assert _score("Pack these:\n- Sunscreen\n- A hat\n- Your 2019 tax returns\n- A lawnmower") < 1.0


@pytest.mark.parametrize("answer", ["Yes, it is.", "Correct.", "Yes, that's right.", "Yes, indeed."])
def test_direct_confirmation_is_relevant(answer: str) -> None:
    metric = AnswerRelevancyMetric()
    assert metric.measure(LLMTestCase(input="Is Paris the capital of France?", actual_output=answer)) == 1.0


def test_direct_confirmation_controls() -> None:
    """Held up: the same words for another yes/no question, and a bare 'Yes.'."""
    metric = AnswerRelevancyMetric()
    assert (
        metric.measure(LLMTestCase(input="Is the store open on Sunday?", actual_output="Yes, it is.")) == 1.0
    )
    assert metric.measure(LLMTestCase(input="Is Paris the capital of France?", actual_output="Yes.")) == 1.0
