"""System One questions of :class:`ContextualRelevancyMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on
any change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Shared content travels once per request in the state. Hybrid: the data notice (``note``, see
:data:`deepeval.metrics.delimit.STATE_NOTE`) and the search request (``input``). system_one mode: just
``input`` and the raw ``retrieval_context`` (no question quotes content, so no note is billed with every request). The state is JSON, so its content cannot forge structure. A hybrid question quotes only
its own statement, between markers; ``kind`` and ``data`` (every field the kind needs) stay on each question for
local judges and never go over the wire."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.contextual_relevancy import names
from deepeval.metrics.delimit import quote
from deepeval.models.system_one import kinds
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "contextual_relevancy-q/2026-7"

RELEVANT_SHARE_LEVELS = ["none", "less than half", "most", "all"]


class ContextualRelevancyQuestions:
    """``statement_relevant`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def statement_relevant(
        input: str, statement: str, context: str | None = None, node: str | None = None
    ) -> NoulQuestion:
        """Yes = the context statement is relevant to the input (kind ``context_statement_relevant``). The request is the
        state's ``input``; only the statement is quoted. ``node`` (the statement's own node) and ``context`` (the
        whole retrieval context, nodes joined by newlines) ride in ``data`` for local judges, which read a sentence
        within its node and rank it among the retrieved sentences; they are never quoted."""
        return NoulQuestion(
            instructions=(
                "Is this statement from a retrieved document useful for the search request `input`?\n"
                + quote("statement", statement)
            ),
            kind=kinds.CONTEXT_STATEMENT_RELEVANT,
            data={
                "input": input,
                "statement": statement,
                **({"node": node} if node is not None else {}),
                **({"context": context} if context is not None else {}),
            },
        )

    @staticmethod
    def whole_metric(input: str, retrieval_context: Sequence[str]) -> list[WeightedQuestion]:
        """Three questions over the state ``{"input", "retrieval_context"}``: yes/no (weights 2, 1) and a
        score."""
        data = {"input": input, "retrieval_context": list(retrieval_context)}
        return [
            WeightedQuestion(
                "all_relevant",
                2.0,
                NoulQuestion(
                    instructions="Is every statement in `retrieval_context` relevant to the search `input`?",
                    kind=names.ALL_RELEVANT,
                    data=data,
                ),
                "every statement in the retrieval context is relevant to the input",
            ),
            WeightedQuestion(
                "every_node_relevant",
                1.0,
                NoulQuestion(
                    instructions="Does every document in `retrieval_context` hold something relevant to `input`?",
                    kind=names.EVERY_NODE_RELEVANT,
                    data=data,
                ),
                "every context node holds at least one relevant statement",
            ),
            WeightedQuestion(
                "relevant_share",
                1.0,
                ScoreQuestion(
                    instructions="How much of `retrieval_context` is relevant to the search `input`?",
                    levels=list(RELEVANT_SHARE_LEVELS),
                    kind=names.RELEVANT_SHARE,
                    data=data,
                ),
                "how much of the retrieval context is relevant",
            ),
        ]
