"""ContextualRelevancy (default eval mode, embedded judge) with ``RetrievedContextData`` whose
``source`` (a page title) looks relevant while the retrieved text is not."""

from __future__ import annotations

from _support.markers import REGRESSION
from deepeval.metrics import ContextualRelevancyMetric
from deepeval.test_case import LLMTestCase, RetrievedContextData

pytestmark = REGRESSION

QUESTION = "How long does it take to hard-boil an egg?"


def _cr(node: RetrievedContextData) -> float:
    return ContextualRelevancyMetric().measure(
        LLMTestCase(input=QUESTION, actual_output="x", retrieval_context=[node])
    )


def test_relevant_looking_source_does_not_make_irrelevant_text_relevant() -> None:
    plain = _cr(RetrievedContextData(context="Paris is the capital of France."))
    titled = _cr(
        RetrievedContextData(
            context="Paris is the capital of France.", source="How long to hard-boil an egg - cooking guide"
        )
    )
    assert plain == 0.0
    assert titled == plain


def test_empty_context_with_a_source_scores_like_a_blank_node() -> None:
    assert _cr(RetrievedContextData(context="", source="How long to hard-boil an egg")) == 0.0
