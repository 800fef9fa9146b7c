"""The three metrics on the embedded offline judge (the default with nothing configured), as a new user meets them:
the README's own examples, degenerate outputs and a very long output."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from _support.markers import REGRESSION
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.models.embedded import encoder
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

pytestmark = REGRESSION

QUESTION = "What if these shoes don't fit?"
ANSWER = "We offer a 30-day full refund at no extra cost."
CONTEXT = "All customers are eligible for a 30 day full refund at no extra cost."


@pytest.mark.xfail(
    strict=True,
    reason="BUG (embedded judge quality): the README's AnswerRelevancy example, an on-topic answer, scores 0.0 "
    "(P(relevant)=0.11 for its only statement), so the first thing a new user runs looks broken. Still open after "
    "retraining on answer statements: the 4-bit e5-small cosine of 'shoes don't fit' to 'full refund' (0.758) is no "
    "higher than to unrelated shop text ('Our store opens at 9 am', 0.746), so no calibrated model over it can "
    "separate them",
)
def test_readme_answer_relevancy_example_passes_on_embedded_judge() -> None:
    m = AnswerRelevancyMetric(threshold=0.7, include_reason=True)
    assert m.measure(LLMTestCase(input=QUESTION, actual_output=ANSWER)) >= 0.7


@pytest.mark.xfail(
    strict=True,
    reason="BUG (embedded judge quality): the README's ContextualRelevancy example, whose one context node restates "
    "the answer to the question, scores 0.0 on the embedded judge (P(relevant)=0.05; same encoder limit as above)",
)
def test_readme_contextual_relevancy_example_passes_on_embedded_judge() -> None:
    m = ContextualRelevancyMetric(threshold=0.7)
    tc = LLMTestCase(input=QUESTION, actual_output=ANSWER, retrieval_context=[CONTEXT])
    assert m.measure(tc) >= 0.7


def test_readme_knowledge_retention_example_catches_the_forgotten_allergy() -> None:
    convo = ConversationalTestCase(
        turns=[
            Turn(role="user", content="Hi, I'm Maya and I'm allergic to peanuts."),
            Turn(role="assistant", content="Nice to meet you, Maya. I'll keep your peanut allergy in mind."),
            Turn(role="user", content="Can you suggest a snack for my flight?"),
            Turn(role="assistant", content="Try a bag of peanuts: they are light and filling."),
        ]
    )
    m = KnowledgeRetentionMetric(threshold=1.0)  # as the README writes it: any forgetting turn fails
    assert m.measure(convo) == 0.5
    assert (
        m.success is False
    )  # deepeval's default 0.5 would pass it (0.5 >= 0.5): the README says why it is 1.0
    assert "turn 3 'Try a bag of peanuts" in (m.reason or "")


def test_control_whitespace_output_scores_zero() -> None:
    m = AnswerRelevancyMetric()
    assert m.measure(LLMTestCase(input=QUESTION, actual_output="  \n ")) == 0.0
    assert m.success is False


@pytest.mark.parametrize("output", ["...", "-", "\U0001f44d\U0001f44d\U0001f44d"])
def test_output_without_words_does_not_score_perfect(output: str) -> None:
    m = AnswerRelevancyMetric()
    score = m.measure(LLMTestCase(input=QUESTION, actual_output=output))
    assert score < 1.0 and m.success is False


@pytest.fixture
def recording_encoder() -> Iterator[list[int]]:
    """Swap the embedded encoder for a fast fake that records the length of every text it is asked to embed."""
    lengths: list[int] = []

    def backend(texts: list[str], is_query: bool) -> Any:
        lengths.extend(len(t) for t in texts)
        out = np.ones((len(texts), encoder.DIM), dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    encoder.set_backend(backend)
    try:
        yield lengths
    finally:
        encoder.set_backend(None)


def test_long_unbroken_output_is_not_embedded_whole(recording_encoder: list[int]) -> None:
    m = AnswerRelevancyMetric(threshold=None)
    m.measure(LLMTestCase(input=QUESTION, actual_output="x" * 100_000))
    assert recording_encoder, "the embedded judge never called the encoder"
    assert max(recording_encoder) <= 8_192
