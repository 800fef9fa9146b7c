"""Contextual precision, declared (:mod:`deepeval.metrics.pipeline`): every retrieval-context node, in rank order,
judged useful or not for arriving at ``expected_output``; the score rewards useful nodes ranked first.

llm (deepeval 4.3.1's algorithm): one verdict call for all nodes (yes: the node is useful for arriving at the
expected output), then the reason. ``score`` = weighted cumulative precision (:class:`RankScore`): with ``r_k`` = 1
for a useful node at rank ``k``, ``sum_k (useful in the top k / k) * r_k / useful nodes``; no useful node -> 0.
hybrid: System One decides each node (P >= 0.5 yes) in one request; the LLM decides what it could not and writes the
reason. system_one: three whole-metric questions over ``input``, ``expected_output`` and ``retrieval_context``
(weights 2, 1, 1). Offline (the embedded judge, no key configured): each node decided by the shared
``context_node_useful`` scorer (the node's relevance to ``input`` with its claim support against
``expected_output``; measured in ``bench/rag_blind.py``), the encoder alone (the local reader has no prompt for
this kind). The whole-metric questions (ranking, top node) have no offline tier: system_one mode on the embedded
judge raises a ``ConfigurationError`` naming what to configure.

Ours, where 4.3.1 differs: an empty retrieval context (or one whose nodes hold no letter or digit) scores 0 with a
reason and no judge call (4.3.1 asks the LLM about zero nodes, then scores 0); a judge that returns another number
of verdicts than nodes is re-asked once, then the measure errors (4.3.1 scores whatever verdicts came back, so one
verdict for three nodes can score 1.0); ``RetrievedContextData`` nodes are judged by their text, each its own node
(4.3.1 merges nodes of one source into one).
"""

from __future__ import annotations

from deepeval.metrics.contextual_precision.schema import ContextualPrecisionScoreReason, Verdicts
from deepeval.metrics.pipeline.spec import (
    UNIT,
    Input,
    NothingToJudge,
    Pipeline,
    RankScore,
    Reason,
    UnitQuestion,
    Units,
    WholeMetricQuestion,
)
from deepeval.models.system_one.kinds import CONTEXT_NODE_USEFUL

EMPTY_CONTEXT_REASON = (
    "The score is 0.00 because the retrieval context is empty: no node was retrieved, so none is useful for "
    "arriving at the expected output."
)
NO_WORDS_REASON = (
    "The score is 0.00 because no node of the retrieval context has words (they are blank or only punctuation, "
    "symbols or emoji), so none is useful for arriving at the expected output."
)

PIPELINE = Pipeline(
    name="contextual_precision",
    display_name="Contextual Precision",
    required=("input", "retrieval_context", "expected_output"),
    units=(Units(name="nodes", source="retrieval_context", prompt=None, schema=None, extraction="items"),),
    question=UnitQuestion(
        units="nodes",
        kind=CONTEXT_NODE_USEFUL,
        text="Is this retrieved document useful for arriving at `expected_output` as the answer to `input`?",
        fields={"node": UNIT, "input": "input", "expected_output": "expected_output"},
        label="node",
        prompt="generate_verdicts",
        schema=Verdicts,
        verdicts="yes_no",
        # context_to_display / retrieval_context: what a verdict prompt written for deepeval 4.3.1 names the nodes
        inputs=(
            "input",
            "expected_output",
            Input("context_to_display", "retrieval_context"),
            Input("retrieval_context", "retrieval_context"),
        ),
    ),
    score=RankScore(passing=("yes",), empty=0.0, empty_reason=NO_WORDS_REASON),
    reason=Reason(
        schema=ContextualPrecisionScoreReason,
        unit="node",
        passes="useful for arriving at the expected output",
        fails="not useful for arriving at the expected output",
        inputs=("input",),
    ),
    whole_metric=(
        WholeMetricQuestion(
            id="useful_first",
            text=(
                "In `retrieval_context`, does every document that helps arrive at `expected_output` for `input` "
                "come before every document that does not?"
            ),
            label="every useful node ranks above every node that is not useful",
            weight=2.0,
            offline=None,
        ),
        WholeMetricQuestion(
            id="top_node_useful",
            text="Does the first document of `retrieval_context` help arrive at `expected_output` for `input`?",
            label="the top-ranked node is useful",
            offline=None,
        ),
        WholeMetricQuestion(
            id="ranking",
            text=(
                "How well does `retrieval_context` rank the documents that help arrive at `expected_output` for "
                "`input` ahead of the others?"
            ),
            label="how well the useful nodes are ranked first",
            answer="score",
            levels=(
                "useful documents come last",
                "useful and other documents are interleaved",
                "useful documents mostly come first",
                "useful documents all come first",
            ),
            offline=None,
        ),
    ),
    whole_metric_fields=("input", "expected_output", "retrieval_context"),
    labels=("node", "nodes", "judged nodes", "request", "expected answer"),
    nothing_to_judge=(
        NothingToJudge("retrieval_context", "blank", 0.0, EMPTY_CONTEXT_REASON, {"nodes": 0}),
        NothingToJudge("retrieval_context", "no_words", 0.0, NO_WORDS_REASON),
    ),
)
