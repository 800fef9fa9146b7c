"""System One questions of :class:`SummarizationMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any change:
it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid: each claim of the summary is asked the shared ``claim_supported`` question against the original text (P >
0.65 yes, < 0.35 no, else borderline), and each assessment question the shared ``fact_stated`` question (does this
text answer it?) against the original and against the summary (P >= 0.5 yes). system_one mode: three whole-metric
questions over ``input`` (the original) and ``actual_output`` (the summary), plus one noul per user-supplied
assessment question."""

from __future__ import annotations

from collections.abc import Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.delimit import quote
from deepeval.metrics.summarization import names
from deepeval.models.system_one import kinds
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "summarization-q/2026-1"

PRESERVED_LEVELS = ["almost none", "less than half", "most of it", "all of it"]


class SummarizationQuestions:
    """``claim_aligned`` and ``question_answered`` (hybrid decisions), ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def claim_aligned(claim: str, original: str) -> NoulQuestion:
        """Yes = the original text (the state's ``source``) supports the summary's claim."""
        return NoulQuestion(
            instructions=(
                "Is this claim of a summary supported by the original text `source`? Answer no if the text "
                "contradicts it.\n" + quote("claim", claim)
            ),
            kind=kinds.CLAIM_SUPPORTED,
            data={"claim": claim, "source": original},
        )

    @staticmethod
    def question_answered(question: str, text: str, which: str) -> NoulQuestion:
        """Yes = ``text`` (the state's ``original`` or ``summary``, named by ``which``) holds enough to answer
        ``question``."""
        return NoulQuestion(
            instructions=f"Does `{which}` hold enough information to answer this question?\n"
            + quote("question", question),
            kind=kinds.FACT_STATED,
            data={"text": text, "question": question},
        )

    @staticmethod
    def whole_metric(
        input: str, actual_output: str, assessment_questions: Sequence[str] | None
    ) -> list[WeightedQuestion]:
        """Three questions over the state ``{"input", "actual_output"}`` (weights 2, 1, 1), plus one weight-1 noul
        per assessment question."""
        data = {"input": input, "actual_output": actual_output}
        out = [
            WeightedQuestion(
                "aligned",
                2.0,
                NoulQuestion(
                    instructions=(
                        "Does every claim of the summary `actual_output` agree with the original text `input`, "
                        "with nothing contradicting it and nothing added that the original does not say?"
                    ),
                    kind=names.ALIGNED,
                    data=data,
                ),
                "every claim of the summary agrees with the original and adds nothing",
            ),
            WeightedQuestion(
                "covers_main_points",
                1.0,
                NoulQuestion(
                    instructions="Does the summary `actual_output` cover the main points of the original `input`?",
                    kind=names.COVERS_MAIN_POINTS,
                    data=data,
                ),
                "the summary covers the main points of the original",
            ),
            WeightedQuestion(
                "preserved_share",
                1.0,
                ScoreQuestion(
                    instructions=(
                        "How much of the important information of the original `input` does the summary "
                        "`actual_output` keep?"
                    ),
                    levels=list(PRESERVED_LEVELS),
                    kind=names.PRESERVED_SHARE,
                    data=data,
                ),
                "how much of the original's important information the summary keeps",
            ),
        ]
        for i, question in enumerate(assessment_questions or []):
            out.append(
                WeightedQuestion(
                    f"assessment_{i}",
                    1.0,
                    NoulQuestion(
                        instructions=(
                            "Can this question be answered from the summary `actual_output` alone, the same way "
                            "as from the original `input`?\n" + quote("question", question)
                        ),
                        kind=names.QUESTION_ANSWERABLE,
                        data={**data, "question": question},
                    ),
                    f"the summary answers {question!r} as the original does",
                )
            )
        return out
