"""System One questions of :class:`AnswerRelevancyMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Shared content travels once per request in the state. Hybrid: the data notice (``note``, see
:data:`deepeval.metrics.delimit.STATE_NOTE`) and the request (``input``). system_one mode: just ``input`` and
the raw ``actual_output`` (no question quotes content, so no note is billed with every request). The state is JSON, so its content cannot forge structure. A hybrid question quotes only its own
statement, between markers; ``kind`` and ``data`` (every field the kind needs) stay on each question for local
judges and never go over the wire."""

from __future__ import annotations

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.answer_relevancy import names
from deepeval.metrics.delimit import quote
from deepeval.models.system_one import kinds
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "answer_relevancy-q/2026-5"

RELEVANT_SHARE_LEVELS = ["none", "less than half", "most", "all"]


class AnswerRelevancyQuestions:
    """``statement_relevant`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def statement_relevant(input: str, statement: str, answer: str | None = None) -> NoulQuestion:
        """Yes = the statement is relevant to the input (kind ``statement_relevant``). The request is the state's
        ``input``; only the statement is quoted. ``answer`` (every statement of the output, one per line) rides in
        ``data`` for local judges, which read a statement beside the answer's others; it is never quoted."""
        return NoulQuestion(
            instructions=(
                "Does this statement from the answer help answer the request `input`?\n"
                + quote("statement", statement)
            ),
            kind=kinds.STATEMENT_RELEVANT,
            data={
                "input": input,
                "statement": statement,
                **({"answer": answer} if answer is not None else {}),
            },
        )

    @staticmethod
    def whole_metric(input: str, actual_output: str) -> list[WeightedQuestion]:
        """Three questions over the state ``{"input", "actual_output"}``: two yes/no (weights 2, 1), one
        score."""
        data = {"input": input, "actual_output": actual_output}
        return [
            WeightedQuestion(
                "all_relevant",
                2.0,
                NoulQuestion(
                    instructions="Is every statement in `actual_output` relevant to `input`?",
                    kind=names.ALL_RELEVANT,
                    data=data,
                ),
                "every statement in the output is relevant to the input",
            ),
            WeightedQuestion(
                "addresses_input",
                1.0,
                NoulQuestion(
                    instructions="Does `actual_output` directly address what `input` asks?",
                    kind=names.ADDRESSES_INPUT,
                    data=data,
                ),
                "the output directly addresses what the input asks",
            ),
            WeightedQuestion(
                "relevant_share",
                1.0,
                ScoreQuestion(
                    instructions="How much of `actual_output` is relevant to `input`?",
                    levels=list(RELEVANT_SHARE_LEVELS),
                    kind=names.RELEVANT_SHARE,
                    data=data,
                ),
                "how much of the output is relevant",
            ),
        ]
