"""SummarizationMetric: whether a summary (``actual_output``) agrees with its original text (``input``) and covers
what matters in it (deepeval 4.3.1's algorithm; our prompts and System One questions).

* **alignment** = the share of the summary's claims the original states (verdict ``yes``; ``no`` contradicts it,
  ``borderline`` adds what the original does not say: both fail); no claims -> 0.
* **coverage**: ``n`` closed questions the original answers with yes (or the user's ``assessment_questions``) are
  asked of the original and of the summary; of the questions the original answers, the share the summary answers too;
  none -> 0.
* ``score = min(alignment, coverage)``; ``score_breakdown = {"Alignment": a, "Coverage": c, ...}`` (4.3.1's keys);
  strict mode zeroes each component below 1 (so the score is 1 or 0).

Calls per measure: llm (7, as 4.3.1): the truths of the original and the claims of the summary (faithfulness'
prompts, the shared claim machinery), the questions (none with ``assessment_questions``), the answers from the
original and from the summary, the alignment verdicts, the reason. hybrid (the LLM extracts and explains, System One
decides): claims, questions and reason by the LLM; two System One requests: each claim asked the shared
``claim_supported`` question against the original (P > 0.65 yes, < 0.35 no, else borderline), and each question the
shared ``fact_stated`` question against each text (P >= 0.5 yes); the truths are extracted only when the LLM must
decide alignment verdicts System One could not. system_one: three whole-metric questions (weights 2, 1, 1) plus one
per assessment question. Offline (the embedded judge, no LLM): the claims by the shared claim extractor, both
decisions by the shared scorers; it needs ``assessment_questions`` (writing questions takes an LLM), else a
``ConfigurationError`` says what to configure; system_one mode has no offline tier.

Ours, where 4.3.1 differs: 4.3.1 stores the questions it generated for the first test case on the metric and asks
them of every later test case (a summary of another text is then judged on the first text's questions); ours
writes them for each test case (``assessment_questions`` reads the last ones used). A summary or original without a
letter or digit scores 0 with a reason and no judge call. A judge returning another number of answers or verdicts
than asked is re-asked once, then the measure errors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources, llm_verdicts, share_score
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.judges import Judges
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.verdicts import binary_from_probability, ternary_from_probability
from deepeval.metrics.delimit import STATE_NOTE, declare_labels
from deepeval.metrics.summarization.names import REQUIRED_PARAMS
from deepeval.metrics.summarization.prompts import SummarizationTemplate
from deepeval.metrics.summarization.questions import SummarizationQuestions
from deepeval.metrics.summarization.schema import (
    Answers,
    Claims,
    Questions,
    SummarizationScoreReason,
    Truths,
    Verdicts,
)
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.resolve import is_embedded
from deepeval.models.structured import ItemCount, a_generate_structured
from deepeval.test_case import LLMTestCase

declare_labels("claims", "facts", "questions", "text", "data")

BLANK_SUMMARY_REASON = (
    "The score is 0.00 because the summary has no words, so it keeps nothing of the original text."
)
BLANK_ORIGINAL_REASON = (
    "The score is 0.00 because the original text has no words, so there is nothing to summarise."
)


def _words(value: Any) -> bool:
    return isinstance(value, str) and has_words(value)


class SummarizationMetric(EngineMetric):
    """``min(alignment, coverage)`` of a summary (``actual_output``) against its original (``input``); higher is
    better (see the module docstring).

    Args (deepeval 4.3.1's, in its order; the rest as :class:`~deepeval.metrics._engine.metric.EngineMetric`):
        n: how many assessment questions to write about the original when ``assessment_questions`` is not given.
        assessment_questions: closed questions the original answers with yes; an empty list counts as None.
        truths_extraction_limit: at most this many facts are listed from the original (None: all; a negative
            number counts as 0).
    """

    default_template = SummarizationTemplate
    default_question_set = SummarizationQuestions
    reason_schema = SummarizationScoreReason

    def __init__(
        self,
        threshold: float | None = 0.5,
        n: int = 5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        assessment_questions: Sequence[str] | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        truths_extraction_limit: int | None = None,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.n = n
        self.given_questions: list[str] | None = list(assessment_questions) if assessment_questions else None
        self._used_questions: list[str] | None = None
        self.truths_extraction_limit = (
            None if truths_extraction_limit is None else max(int(truths_extraction_limit), 0)
        )
        self.truths: list[str] = []
        self.claims: list[str] = []
        self.alignment_verdicts: list[dict[str, Any]] = []
        self.coverage_verdicts: list[dict[str, Any]] = []
        super().__init__(
            threshold=threshold,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            evaluation_template=evaluation_template,
            question_set=question_set,
            extractor=extractor,
        )

    @property
    def assessment_questions(self) -> list[str] | None:
        """The questions of the last measure (written for its original when none were given), else those given."""
        return self._used_questions if self._used_questions is not None else self.given_questions

    @assessment_questions.setter
    def assessment_questions(self, value: Sequence[str] | None) -> None:
        self.given_questions = list(value) if value else None
        self._used_questions = None

    @property
    def __name__(self) -> str:
        return "Summarization"

    # -- the engine's hooks ----------------------------------------------------------------------------------------
    def judges(self) -> Judges:
        """The engine's judges, refused up front where the embedded judge alone cannot run this metric.

        Raises:
            ConfigurationError: system_one mode on the embedded judge, or no LLM and no ``assessment_questions``.
        """
        judges = super().judges()
        if judges.llm is None and is_embedded(judges.system_one):
            if judges.mode is EvalMode.SYSTEM_ONE:
                missing = "its whole-metric questions have no measured offline tier"
            elif self.given_questions is None:
                missing = "writing the assessment questions takes an LLM (or pass assessment_questions=)"
            else:
                return judges
            raise ConfigurationError(
                f"{self.__name__} cannot run on the embedded offline judge in {judges.mode.value} mode: {missing}. "
                "Configure an LLM judge (OPENAI_API_KEY, or USE_LOCAL_MODEL=YES with LOCAL_MODEL_BASE_URL, or "
                "model=) or a System One judge (TYPESAFE_API_KEY, or system_one_model=)."
            )
        return judges

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm)

    def _degenerate(self, test_case: LLMTestCase) -> Outcome | None:
        if not _words(test_case.actual_output):
            return Outcome(0.0, BLANK_SUMMARY_REASON, {"Alignment": 0.0, "Coverage": 0.0, "claims": 0})
        if not _words(test_case.input):
            return Outcome(0.0, BLANK_ORIGINAL_REASON, {"Alignment": 0.0, "Coverage": 0.0, "truths": 0})
        return None

    def _system_one_request(self, test_case: LLMTestCase) -> tuple[Any, list[WeightedQuestion]]:
        state = {"input": test_case.input, "actual_output": test_case.actual_output}
        questions = self.question_set.whole_metric(
            test_case.input, test_case.actual_output, self.given_questions
        )
        return state, list(questions)

    # -- llm / hybrid ----------------------------------------------------------------------------------------------
    async def _evaluate(self, test_case: LLMTestCase, ctx: MeasureContext) -> Outcome:
        original, summary = str(test_case.input), str(test_case.actual_output)
        llm_extracts = ctx.llm is not None and ctx.own_extraction
        truths_task: asyncio.Future[list[str]] | None = None

        async def truths() -> list[str]:  # extracted once, on first need
            nonlocal truths_task
            if truths_task is None:
                truths_task = asyncio.ensure_future(self._truths(ctx, original, llm_extracts))
            return await truths_task

        need_truths = ctx.mode is EvalMode.LLM or ctx.system_one is None
        first: list[Any] = [self._claims(ctx, summary, llm_extracts), self._questions(ctx, original)]
        if need_truths:
            first.append(truths())
        got = await ctx.gather(*first)
        claims, questions = got[0], got[1]
        alignment, answers = await ctx.gather(
            self._align(ctx, claims, original, truths), self._answer(ctx, questions, original, summary)
        )
        facts = await truths() if truths_task is not None else []
        ctx.log(f"Truths (limit={self.truths_extraction_limit})", facts)
        ctx.log("Claims", claims)
        ctx.log("Assessment Questions", questions)
        self._used_questions = questions if self.given_questions is None else None
        return await self._score(ctx, claims, facts, questions, alignment, answers)

    async def _truths(self, ctx: MeasureContext, original: str, llm_extracts: bool) -> list[str]:
        limit = self.truths_extraction_limit
        if llm_extracts:
            assert ctx.llm is not None
            method = self.evaluation_template.generate_truths
            prompt = call_template(
                method, retrieval_context=original, text=original, extraction_limit=limit, limit=limit
            )
            reply: Any = await a_generate_structured(ctx.llm, prompt, Truths)
            items = [t.strip() for t in reply.truths if isinstance(t, str) and t.strip()]
        else:
            assert ctx.extractor is not None
            items = list(await ctx.extractor.claims(original))
        return items if limit is None else items[:limit]

    async def _claims(self, ctx: MeasureContext, summary: str, llm_extracts: bool) -> list[str]:
        if llm_extracts:
            assert ctx.llm is not None
            method = self.evaluation_template.generate_claims
            prompt = call_template(method, actual_output=summary, text=summary)
            reply: Any = await a_generate_structured(ctx.llm, prompt, Claims)
            return [c.strip() for c in reply.claims if isinstance(c, str) and c.strip()]
        assert ctx.extractor is not None
        return list(await ctx.extractor.claims(summary))

    async def _questions(self, ctx: MeasureContext, original: str) -> list[str]:
        if self.given_questions is not None:
            return list(self.given_questions)
        if (
            ctx.llm is None
        ):  # judges() refuses this up front for the embedded judge; a user System One may get here
            raise ConfigurationError(
                f"{self.__name__}: writing the assessment questions takes an LLM judge; configure one or pass "
                "assessment_questions="
            )
        prompt = call_template(self.evaluation_template.generate_questions, text=original, n=self.n)
        reply: Any = await a_generate_structured(ctx.llm, prompt, Questions)
        return [q.strip() for q in reply.questions if isinstance(q, str) and q.strip()]

    async def _align(
        self, ctx: MeasureContext, claims: list[str], original: str, truths: Any
    ) -> dict[str, Decision]:
        ids = [f"a{i}" for i in range(len(claims))]
        by_id = dict(zip(ids, claims, strict=True))

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            facts = await truths()
            method = self.evaluation_template.generate_alignment_verdicts
            picked = [by_id[i] for i in subset]
            prompt = call_template(
                method,
                claims=picked,
                truths=facts,
                summary_claims=picked,
                original_text="\n\n".join(facts),
            )
            return await llm_verdicts(ctx.llm, prompt, Verdicts, subset)

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "source": original},
            questions={i: self.question_set.claim_aligned(c, original) for i, c in by_id.items()},
            to_verdict=ternary_from_probability,
            llm_decide=llm_decide,
        )

    async def _answer(
        self, ctx: MeasureContext, questions: list[str], original: str, summary: str
    ) -> dict[str, Decision]:
        texts = {"o": ("original", original), "s": ("summary", summary)}
        asked = {f"{t}{i}": (t, q) for t in texts for i, q in enumerate(questions)}

        async def one_text(t: str, ids: list[str]) -> dict[str, Decision]:
            assert ctx.llm is not None
            qs = [asked[i][1] for i in ids]
            prompt = call_template(self.evaluation_template.generate_answers, questions=qs, text=texts[t][1])
            check = ItemCount("answers", len(qs), item="answer", unit="question")
            reply: Any = await a_generate_structured(ctx.llm, prompt, Answers, check=check)
            return {i: Decision(a, None, "llm") for i, a in zip(ids, reply.answers, strict=True)}

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            groups = {t: [i for i in subset if asked[i][0] == t] for t in texts}
            merged: dict[str, Decision] = {}
            for part in await ctx.gather(*(one_text(t, ids) for t, ids in groups.items() if ids)):
                merged.update(part)
            return merged

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "original": original, "summary": summary},
            questions={
                i: self.question_set.question_answered(q, texts[t][1], texts[t][0])
                for i, (t, q) in asked.items()
            },
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )

    async def _score(
        self,
        ctx: MeasureContext,
        claims: list[str],
        facts: list[str],
        questions: list[str],
        alignment: dict[str, Decision],
        answers: dict[str, Decision],
    ) -> Outcome:
        aligned = [{"claim": c, **d.as_log()} for c, d in zip(claims, alignment.values(), strict=True)]
        alignment_score = share_score(ctx, alignment, lambda d: d.verdict == "yes")[0] if alignment else 0.0
        covered = [
            {
                "question": q,
                "original_verdict": answers[f"o{i}"].verdict,
                "summary_verdict": answers[f"s{i}"].verdict,
            }
            for i, q in enumerate(questions)
        ]
        answerable = [c for c in covered if c["original_verdict"] == "yes"]
        coverage_score = (
            sum(c["summary_verdict"] == "yes" for c in answerable) / len(answerable) if answerable else 0.0
        )
        if self.strict_mode:  # as 4.3.1: each component below 1 counts 0
            alignment_score = alignment_score if alignment_score >= 1 else 0.0
            coverage_score = coverage_score if coverage_score >= 1 else 0.0
        ctx.log("Coverage Verdicts", covered)
        ctx.log_verdicts("Alignment Verdicts", aligned)
        self.alignment_verdicts, self.coverage_verdicts = aligned, covered
        score = min(alignment_score, coverage_score)
        breakdown: dict[str, Any] = {
            "Alignment": alignment_score,
            "Coverage": coverage_score,
            "claims": len(claims),
            "truths": len(facts),
            "questions": len(questions),
            **decision_sources({**alignment, **answers}),
        }
        reason = None
        if ctx.include_reason:
            reason = await self._reason(ctx, score, alignment_score, coverage_score, aligned, covered)
        return Outcome(score, reason, breakdown, units={"truths": facts, "claims": claims})

    async def _reason(
        self,
        ctx: MeasureContext,
        score: float,
        alignment_score: float,
        coverage_score: float,
        aligned: list[dict[str, Any]],
        covered: list[dict[str, Any]],
    ) -> str:
        contradictions = [str(a.get("reason") or a["claim"]) for a in aligned if a["verdict"] == "no"]
        redundancies = [str(a.get("reason") or a["claim"]) for a in aligned if a["verdict"] == "borderline"]
        missed = [
            c["question"] for c in covered if c["original_verdict"] == "yes" and c["summary_verdict"] != "yes"
        ]
        if ctx.llm is None:
            return deterministic_reason(
                score, alignment_score, coverage_score, contradictions, redundancies, missed
            )
        method = self.evaluation_template.generate_reason
        ours = takes(method, "judged") or not takes(method, "score")
        prompt = call_template(
            method,
            score=score if ours else format(score, ".2f"),
            alignment_score=alignment_score,
            coverage_score=coverage_score,
            judged={"claims": aligned, "questions": covered},
            contradictions=contradictions,
            redundancies=redundancies,
            questions=missed,
        )
        reply: Any = await a_generate_structured(ctx.llm, prompt, SummarizationScoreReason)
        return str(reply.reason)


def deterministic_reason(
    score: float,
    alignment_score: float,
    coverage_score: float,
    contradictions: Sequence[str],
    redundancies: Sequence[str],
    missed: Sequence[str],
) -> str:
    """The reason written from the verdicts alone (no LLM)."""
    parts = [
        f"The score is {score:.2f}, the lower of alignment {alignment_score:.2f} and coverage {coverage_score:.2f}."
    ]
    if contradictions:
        parts.append(f"Contradicting the original: {'; '.join(contradictions)}.")
    if redundancies:
        parts.append(f"Not in the original: {'; '.join(redundancies)}.")
    if missed:
        parts.append(f"Questions the original answers but the summary does not: {'; '.join(missed)}.")
    if len(parts) == 1:
        parts.append("The summary agrees with the original and answers what it answers.")
    return " ".join(parts)
