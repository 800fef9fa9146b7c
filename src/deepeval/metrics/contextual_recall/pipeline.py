"""Contextual recall, declared (:mod:`deepeval.metrics.pipeline`): each sentence of ``expected_output`` judged
attributable or not to ``retrieval_context``.

llm (deepeval 4.3.1's algorithm): one verdict call for every sentence (yes: the retrieval context supports it), then
the reason; ``score = yes / sentences``; no sentence -> 0. The sentences are split by rule (sentences and list items)
in every mode, as 4.3.1's hybrid splits them, so the LLM judges the sentences it is shown (4.3.1's llm prompt lets
the LLM split and judge in one call; the number of calls is the same). hybrid: System One asks each sentence the
shared ``claim_supported`` question against the retrieval context (P >= 0.5 yes) in one request; the LLM decides
what it could not and writes the reason. system_one: three whole-metric questions over ``expected_output`` and
``retrieval_context`` (weights 2, 1, 1). Offline (the embedded judge): each sentence decided by the shared
``claim_supported`` scorer (memory precision and faithfulness ask it too).

Ours, where 4.3.1 differs: an empty retrieval context scores 0 with a reason and no judge call (4.3.1 asks the LLM,
which finds nothing attributable); a judge that returns another number of verdicts than sentences is re-asked once,
then the measure errors (4.3.1 scores whatever came back).
"""

from __future__ import annotations

from deepeval.metrics.contextual_recall.schema import ContextualRecallScoreReason, Verdicts
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    NothingToJudge,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)
from deepeval.models.system_one.kinds import CLAIM_SUPPORTED

NO_SENTENCES_REASON = (
    "The score is 0.00 because the expected output has no sentence with words, so nothing in it can be attributed "
    "to the retrieval context."
)
EMPTY_CONTEXT_REASON = (
    "The score is 0.00 because the retrieval context is empty: nothing was retrieved, so no sentence of the expected "
    "output can be attributed to it."
)
NO_WORDS_REASON = (
    "The score is 0.00 because no node of the retrieval context has words (they are blank or only punctuation, "
    "symbols or emoji), so no sentence of the expected output can be attributed to it."
)

PIPELINE = Pipeline(
    name="contextual_recall",
    display_name="Contextual Recall",
    required=("input", "retrieval_context", "expected_output"),
    units=(
        Units(name="sentences", source="expected_output", prompt=None, schema=None, extraction="statements"),
    ),
    question=UnitQuestion(
        units="sentences",
        kind=CLAIM_SUPPORTED,
        text="Can this sentence be attributed to the facts in `source`?",
        fields={"claim": UNIT, "source": "retrieval_context"},
        label="sentence",
        prompt="generate_verdicts",
        schema=Verdicts,
        verdicts="yes_no",
        # expected_output / context_to_display: what a verdict prompt written for deepeval 4.3.1 names its inputs
        inputs=(
            Input("retrieval_context", "retrieval_context"),
            Input("context_to_display", "retrieval_context"),
            "expected_output",
        ),
    ),
    score=ShareScore(passing=("yes",), empty=0.0, empty_reason=NO_SENTENCES_REASON),
    reason=Reason(
        schema=ContextualRecallScoreReason,
        unit="sentence",
        passes="attributable to the retrieval context",
        fails="not attributable to the retrieval context",
        failing_as="unsupportive_reasons",
        inputs=("expected_output",),
    ),
    whole_metric=(
        WholeMetricQuestion(
            id="all_attributable",
            text="Can every sentence of `expected_output` be attributed to the facts in `retrieval_context`?",
            label="every sentence of the expected output is supported by the retrieval context",
            weight=2.0,
            offline="all",
        ),
        WholeMetricQuestion(
            id="key_facts_present",
            text="Does `retrieval_context` hold the main facts needed to write `expected_output`?",
            label="the retrieval context holds the main facts of the expected output",
            offline="share",
        ),
        WholeMetricQuestion(
            id="attributable_share",
            text="How much of `expected_output` can be attributed to the facts in `retrieval_context`?",
            label="how much of the expected output the retrieval context supports",
            answer="score",
            levels=("none of it", "less than half", "most of it", "all of it"),
            offline="share",
        ),
    ),
    whole_metric_fields=("expected_output", "retrieval_context"),
    labels=("sentence", "sentences", "judged sentences", "nodes", "expected answer"),
    nothing_to_judge=(
        NothingToJudge("retrieval_context", "blank", 0.0, EMPTY_CONTEXT_REASON, {"sentences": 0}),
        NothingToJudge("retrieval_context", "no_words", 0.0, NO_WORDS_REASON),
        NothingToJudge("expected_output", "no_words", 0.0, NO_SENTENCES_REASON, {"sentences": 0}),
    ),
)
