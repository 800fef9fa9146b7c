"""Faithfulness, declared (:mod:`deepeval.metrics.pipeline`): the claims of ``actual_output``, each judged against
the facts of ``retrieval_context``.

llm (deepeval 4.3.1's algorithm): the LLM lists the truths of the retrieval context (joined by blank lines, at most
``truths_extraction_limit`` of them) and the claims of the output (both at once), then gives one verdict per claim
(yes: the truths state it; no: they contradict it; idk: they are silent); ``score = faithful claims / claims`` where
yes and idk are faithful, only yes with ``penalize_ambiguous_claims=True``; no claims -> 1.0. hybrid: the LLM lists
the claims; System One asks each claim the shared ``claim_supported`` question against the retrieval context itself
(P > 0.65 yes, P < 0.35 no, else idk); the truths are listed only when the LLM has to decide what System One could
not. system_one: three whole-metric questions over ``actual_output`` and ``retrieval_context`` (weights 2, 1, 1).
No facts (``retrieval_context`` is ``[]`` or no node has words): no judge call, in every mode; the score is 1.0 (no
fact contradicts a claim, and a claim the facts are silent on counts as faithful), 0.0 with
``penalize_ambiguous_claims`` (no claim can be supported). ours: 4.3.1 asks the judge with an empty fact list.
Offline (the embedded judge): claims by the shared claim extractor (memory precision uses it too), each asked the
shared ``claim_supported`` question and, when not supported, the shared ``claim_contradicted`` one (the declared
:class:`~deepeval.metrics.pipeline.spec.Contradiction`): supported -> yes, contradicted -> no, else idk (borderline),
so ``penalize_ambiguous_claims`` reads them as 4.3.1 does. Each question: the encoder where it is sure, the local
reader the rest. The encoder alone cannot tell a contradiction, so without a reader every unsupported claim is idk.
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics.faithfulness.schema import Claims, FaithfulnessScoreReason, Truths, Verdicts
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Contradiction,
    Input,
    NothingToJudge,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)
from deepeval.models.system_one.kinds import CLAIM_CONTRADICTED, CLAIM_SUPPORTED

NO_CLAIMS_REASON = (
    "The score is 1.00 because the actual output makes no claims, so nothing in it contradicts the retrieval "
    "context."
)


def _no_facts_score(metric: Any) -> float:
    return 0.0 if getattr(metric, "penalize_ambiguous_claims", False) else 1.0


def _no_facts_reason(metric: Any) -> str:
    if getattr(metric, "penalize_ambiguous_claims", False):
        return (
            "The score is 0.00 because the retrieval context holds no facts, so no claim of the actual output can be "
            "supported (penalize_ambiguous_claims counts a claim the facts are silent on as unfaithful)."
        )
    return (
        "The score is 1.00 because the retrieval context holds no facts, so nothing contradicts the actual output "
        "(a claim the facts are silent on counts as faithful)."
    )


_NO_FACTS = {"truths": 0}


def _passing(metric: Any) -> tuple[str, ...]:
    """yes and idk (``borderline``) count as faithful; only yes with ``penalize_ambiguous_claims``."""
    return ("yes",) if getattr(metric, "penalize_ambiguous_claims", False) else ("yes", "borderline")


PIPELINE = Pipeline(
    name="faithfulness",
    display_name="Faithfulness",
    required=("input", "actual_output", "retrieval_context"),
    units=(
        Units(
            name="truths",
            source="retrieval_context",
            prompt="generate_truths",
            schema=Truths,
            extraction="claims",
            inputs=(
                Input("retrieval_context", "retrieval_context", join="\n\n"),
                Input("extraction_limit", "truths_extraction_limit"),
            ),
        ),
        Units(
            name="claims",
            source="actual_output",
            prompt="generate_claims",
            schema=Claims,
            extraction="claims",
        ),
    ),
    question=UnitQuestion(
        units="claims",
        kind=CLAIM_SUPPORTED,
        text="Is this claim supported by the facts in `source`? Answer no if the facts contradict it.",
        fields={"claim": UNIT, "source": "retrieval_context"},
        label="claim",
        prompt="generate_verdicts",
        schema=Verdicts,
        verdicts="yes_no_idk",
        inputs=("truths", Input("retrieval_context", "truths", join="\n\n")),
        id_prefix="c",
        gold_labels=("supported", "contradicted", "not stated"),
        contradiction=Contradiction(
            kind=CLAIM_CONTRADICTED,
            fields={"claim": UNIT, "source": "retrieval_context"},
            text="Do the facts in `source` contradict this claim?",
        ),
    ),
    score=ShareScore(
        passing=_passing,
        empty=1.0,
        empty_reason=NO_CLAIMS_REASON,
        gold_passing=("supported", "not stated"),
    ),
    reason=Reason(
        schema=FaithfulnessScoreReason,
        unit="claim",
        passes="faithful to the retrieval context",
        fails="not faithful to the retrieval context",
        failing_as="contradictions",
    ),
    whole_metric=(
        WholeMetricQuestion(
            id="all_supported",
            text="Is every factual claim in `actual_output` supported by the facts in `retrieval_context`?",
            label="every claim in the output is supported by the retrieval context",
            weight=2.0,
            offline="all",
        ),
        WholeMetricQuestion(
            id="no_contradiction",
            text="Is `actual_output` free of claims that contradict the facts in `retrieval_context`?",
            label="no claim in the output contradicts the retrieval context",
            offline="all",
        ),
        WholeMetricQuestion(
            id="grounded_share",
            text="How much of `actual_output` is grounded in the facts in `retrieval_context`?",
            label="how much of the output is grounded in the retrieval context",
            answer="score",
            levels=("fabricated", "mostly fabricated", "mostly grounded", "fully grounded"),
            offline="share",
        ),
    ),
    whole_metric_fields=("actual_output", "retrieval_context"),
    labels=("claim", "claims", "judged claims", "facts"),
    nothing_to_judge=(
        NothingToJudge("retrieval_context", "blank", _no_facts_score, _no_facts_reason, _NO_FACTS),
        NothingToJudge("retrieval_context", "no_words", _no_facts_score, _no_facts_reason, _NO_FACTS),
    ),
)
