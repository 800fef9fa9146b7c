"""Breaker 3: ContextualRelevancy on the default (embedded) judge. REFERENCE §4: each context statement is judged
relevant or not to the input; score = relevant / all. The embedded judge ranks each statement among every retrieved
sentence, so adding more relevant sentences makes the earlier ones irrelevant."""

from __future__ import annotations

import pytest

from deepeval.metrics import ContextualRelevancyMetric
from deepeval.test_case import LLMTestCase

QUESTION = "What is the capital of France?"
RELEVANT = [
    "Paris is the capital of France.",
    "The French capital is Paris.",
    "France's seat of government is in Paris.",
    "Paris has been the capital of France since the 10th century.",
    "The President of France lives in Paris, the capital.",
    "Paris became the capital under Hugh Capet.",
]


def _score(context: list[str]) -> float:
    metric = ContextualRelevancyMetric()
    return metric.measure(LLMTestCase(input=QUESTION, actual_output="Paris.", retrieval_context=context))


def test_five_relevant_nodes_score_one() -> None:
    """Held up: five one-sentence nodes that each answer the question all count as relevant."""
    assert _score(RELEVANT[:5]) == 1.0


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (contextual relevancy, embedded judge): a sixth one-sentence node that also answers the question "
        "flips two of the first five to 'not relevant' (\"France's seat of government is in Paris.\" "
        "P(relevant) drops below 0.5): 5 nodes score 1.0, 6 nodes score 0.667"
    ),
)
def test_one_more_relevant_node_does_not_lower_the_score() -> None:
    assert _score(RELEVANT[:6]) == 1.0


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (contextual relevancy, embedded judge): a node repeating 'The capital of France is Paris.' 20 times "
        "plus a node 'Paris is the capital.' scores 0.0 (all 21 statements P(relevant)=0.36); the same with 5 "
        "repeats scores 1.0"
    ),
)
def test_repeated_answer_sentences_stay_relevant() -> None:
    assert _score(["The capital of France is Paris. " * 5, "Paris is the capital."]) == 1.0
    assert _score(["The capital of France is Paris. " * 20, "Paris is the capital."]) >= 0.9


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (contextual relevancy, embedded judge): an irrelevant node becomes relevant when another irrelevant "
        "node is added: ['Paris is the capital of France.', 'The capital of Germany is Berlin.', 'Madrid is the "
        "capital of Spain.'] scores 0.667 (Madrid counted relevant), while [Paris, Madrid] scores 0.5 and "
        "[Madrid] alone 0.0; expected 1/3"
    ),
)
def test_adding_an_irrelevant_node_does_not_make_another_relevant() -> None:
    assert _score(["Paris is the capital of France.", "Madrid is the capital of Spain."]) == 0.5
    three = [
        "Paris is the capital of France.",
        "The capital of Germany is Berlin.",
        "Madrid is the capital of Spain.",
    ]
    assert _score(three) == pytest.approx(1 / 3)
