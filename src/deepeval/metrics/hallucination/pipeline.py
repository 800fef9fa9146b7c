"""Hallucination, declared (:mod:`deepeval.metrics.pipeline`): ``actual_output`` judged against each document of
``context``: does it agree with it, or contradict it?

deepeval 4.3.1 scores the share of documents the output agrees with (1 = no contradiction) and its ``threshold`` is a
**minimum**, as every other metric's; it warns (``DeprecationWarning``, once per process) that this changed: earlier
releases scored the share of contradicted documents, with the threshold a maximum. Ours does the same and warns the
same way (our wording).

llm: one verdict call for every document (yes: agrees; an output that leaves details out still agrees; no: it
contradicts the document), then the reason; ``score = yes / documents``; no documents -> 1.0 (nothing to
contradict). hybrid: System One decides each document (P >= 0.5 yes) in one request; the LLM decides what it could
not and writes the reason. system_one: three whole-metric questions over ``actual_output`` and ``context`` (weights
2, 1, 1). Offline: the declared :class:`~deepeval.metrics.pipeline.spec.Contradiction` question, the shared
``claim_contradicted`` kind (``claim`` = the output, ``source`` = the document; contradicted -> no, else yes, unsure
counted by P(not contradicted)). The encoder can only rule a contradiction out, so this route needs the local reader,
and its answers are used only once a reader calibration for the kind passes the ship rule on blind-dev
(``bench/RESULTS.md``, "RAG metrics offline on blind v3"); until then, with no LLM and no System One configured, the
metric raises a ``ConfigurationError`` that says which (no reader, or the reader's answers not used). Measured on the
blind v3 hallucination set (``bench/rag_blind.py``, blind-dev, 35 documents, 29% contradicted): the encoder's best
contradiction evidence ranks contradicted documents at AUROC 0.71 and is right on 0.74 against 0.71 for "always
agrees"; the 1.5B reader's first-token answer to our contradiction prompts ranked them below chance.

Ours, where 4.3.1 differs: ``context=[]`` scores 1.0 with a reason and no judge call (4.3.1 asks the LLM about zero
documents, then scores 1); a judge that returns another number of verdicts than documents is re-asked once, then the
measure errors (4.3.1 scores whatever came back).
"""

from __future__ import annotations

from deepeval.metrics.hallucination.schema import HallucinationScoreReason, Verdicts
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Contradiction,
    NothingToJudge,
    Pipeline,
    Reason,
    ShareScore,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)
from deepeval.models.system_one.kinds import CLAIM_CONTRADICTED

#: the System One kind of the per-document question (offline: the declared contradiction question, see the module
#: docstring)
CONTEXT_AGREES = "hallucination.context_agrees"

EMPTY_CONTEXT_REASON = (
    "The score is 1.00 because the context is empty: there is no document for the output to contradict."
)

PIPELINE = Pipeline(
    name="hallucination",
    display_name="Hallucination",
    required=("input", "actual_output", "context"),
    units=(Units(name="contexts", source="context", prompt=None, schema=None, extraction="items"),),
    question=UnitQuestion(
        units="contexts",
        kind=CONTEXT_AGREES,
        text=(
            "Does `actual_output` agree with this context document? Answer no only if it contradicts it; leaving "
            "details out is not a contradiction."
        ),
        fields={"context": UNIT, "actual_output": "actual_output"},
        label="context",
        prompt="generate_verdicts",
        schema=Verdicts,
        verdicts="yes_no",
        inputs=("actual_output",),
        contradiction=Contradiction(
            kind=CLAIM_CONTRADICTED,
            fields={"claim": "actual_output", "source": UNIT},
            text="Does this context document contradict `actual_output`?",
        ),
    ),
    score=ShareScore(passing=("yes",), empty=1.0, empty_reason=EMPTY_CONTEXT_REASON),
    reason=Reason(
        schema=HallucinationScoreReason,
        unit="context",
        passes="agreed with by the output",
        fails="contradicted by the output",
        failing_as="contradictions",
    ),
    whole_metric=(
        WholeMetricQuestion(
            id="agrees_with_all",
            text="Does `actual_output` agree with every document in `context`?",
            label="the output agrees with every context document",
            weight=2.0,
            offline=None,
        ),
        WholeMetricQuestion(
            id="no_contradiction",
            text="Is `actual_output` free of statements that contradict a document in `context`?",
            label="no statement of the output contradicts the context",
            offline=None,
        ),
        WholeMetricQuestion(
            id="consistency",
            text="How consistent is `actual_output` with the documents in `context`?",
            label="how consistent the output is with the context",
            answer="score",
            levels=("contradicts them", "mostly contradicts them", "mostly consistent", "fully consistent"),
            offline=None,
        ),
    ),
    whole_metric_fields=("actual_output", "context"),
    labels=("context", "contexts", "judged contexts", "output"),
    nothing_to_judge=(
        NothingToJudge("context", "blank", 1.0, EMPTY_CONTEXT_REASON, {"contexts": 0}),
        NothingToJudge("context", "no_words", 1.0, EMPTY_CONTEXT_REASON, {"contexts": 0}),
    ),
)
