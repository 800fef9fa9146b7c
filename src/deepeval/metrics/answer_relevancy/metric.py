"""AnswerRelevancyMetric: how much of ``actual_output`` is relevant to ``input`` (REFERENCE §2-§4).

llm: the LLM splits the output into statements and gives one verdict per statement (yes / no / borderline);
``score = (yes + borderline) / statements``; no statements -> 1.0 (an output with words from which the LLM draws no
statements). hybrid: the LLM extracts and writes the reason;
System One decides each statement in one request (P > 0.65 yes, P < 0.35 no, else borderline); ours: with a System
One model that weighs statements (``share_weight``: the embedded judge, whose probabilities are calibrated), each
statement counts by its weight instead of 1 or 0 (see :func:`deepeval.metrics._engine.decisions.share_score`). system_one: three
whole-metric questions. An ``actual_output`` of ``""`` raises ``MissingTestCaseParamsError``; a whitespace-only output,
or one with no letter or digit at all (``"..."``, ``"-"``, emoji only), scores 0 with a reason and calls no judge, in
every mode (ours: deepeval scores an empty output 1.0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import (
    decide,
    decision_sources,
    llm_verdicts,
    share_score,
    weighted_note,
)
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import takes
from deepeval.metrics._engine.verdicts import ternary_from_probability
from deepeval.metrics.answer_relevancy.names import REQUIRED_PARAMS
from deepeval.metrics.answer_relevancy.prompts import AnswerRelevancyTemplate
from deepeval.metrics.answer_relevancy.questions import AnswerRelevancyQuestions
from deepeval.metrics.answer_relevancy.schema import AnswerRelevancyScoreReason, Verdicts
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.test_case import LLMTestCase

BLANK_OUTPUT_REASON = "The score is 0.00 because the actual output is blank (whitespace only), so it says nothing that answers the input."
NO_WORDS_REASON = (
    "The score is 0.00 because the actual output has no words (only punctuation, symbols or emoji), so it says "
    "nothing that answers the input."
)
NO_STATEMENTS_REASON = (
    "The score is 1.00 because the actual output makes no statements, so nothing in it is irrelevant."
)


class AnswerRelevancyMetric(EngineMetric):
    """Share of the output's statements that are relevant to the input. Score in [0, 1]; higher is better.
    Requires ``input`` and ``actual_output``. Constructor: see :class:`EngineMetric`."""

    default_template = AnswerRelevancyTemplate
    default_question_set = AnswerRelevancyQuestions
    reason_schema = AnswerRelevancyScoreReason

    @property
    def __name__(self) -> str:
        return "Answer Relevancy"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm, statements_prompt=self.evaluation_template.generate_statements)

    def _system_one_request(self, test_case: LLMTestCase) -> tuple[Any, list[WeightedQuestion]]:
        output = test_case.actual_output or ""
        # system_one mode: the state's fields are the data and no question quotes content, so no data note
        state = {"input": test_case.input, "actual_output": output}
        return state, list(self.question_set.whole_metric(test_case.input, output))

    def _degenerate(self, test_case: LLMTestCase) -> Outcome | None:
        output = test_case.actual_output or ""
        if not output.strip():
            return Outcome(0.0, BLANK_OUTPUT_REASON, {"statements": 0, "blank_output": True})
        if not has_words(output):
            return Outcome(0.0, NO_WORDS_REASON, {"statements": 0, "no_words": True})
        return None

    async def _evaluate(self, test_case: LLMTestCase, ctx: MeasureContext) -> Outcome:
        question, output = test_case.input, test_case.actual_output or ""
        assert ctx.extractor is not None
        statements = await ctx.extractor.statements(output)
        ctx.log("Statements", statements)
        if not statements:
            return Outcome(1.0, NO_STATEMENTS_REASON, {"statements": 0, "yes": 0, "no": 0, "borderline": 0})
        decisions = await self._judge_statements(ctx, question, statements)
        by_id = {f"s{i}": st for i, st in enumerate(statements)}
        score, weights = share_score(ctx, decisions, lambda d: d.verdict in ("yes", "borderline"))
        judged = [
            {
                "statement": by_id[i],
                **d.as_log(),
                **({"weight": round(weights[i], 4)} if i in weights else {}),
            }
            for i, d in decisions.items()
        ]
        # deepeval's attribute after a measure: the statements, in order (verdicts: set by the engine)
        self.statements = list(statements)
        ctx.log_verdicts("Verdicts", judged)
        counts = {v: sum(d.verdict == v for d in decisions.values()) for v in ("yes", "no", "borderline")}
        if any(d.unsure for d in decisions.values()):
            counts["unsure"] = sum(d.unsure for d in decisions.values())
        breakdown: dict[str, Any] = {
            "statements": len(statements),
            **counts,
            "weighted_by_probability": bool(weights),
            **decision_sources(decisions),
        }
        reason = (
            await self._explain(ctx, score, judged, deterministic_reason, question)
            if ctx.include_reason
            else None
        )
        return Outcome(score, reason, breakdown)

    async def _judge_statements(
        self, ctx: MeasureContext, question: str, statements: Sequence[str]
    ) -> dict[str, Decision]:
        """One decision per statement (ids ``s0, s1, ...``), in the eval mode of ``ctx``: the LLM with the metric's
        verdict prompt, or System One with ``question_set.statement_relevant`` (also used by ``judge-eval``)."""
        ids = [f"s{i}" for i in range(len(statements))]
        by_id = dict(zip(ids, statements, strict=True))
        answer = "\n".join(statements)  # one string shared by every question (local judges read siblings)

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            chosen = [by_id[i] for i in subset]
            prompt = self.evaluation_template.generate_verdicts(question, chosen)
            return await llm_verdicts(ctx.llm, prompt, Verdicts, subset)

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "input": question},
            questions={i: self._statement_question(question, by_id[i], answer) for i in ids},
            to_verdict=ternary_from_probability,
            llm_decide=llm_decide,
        )

    def _statement_question(self, question: str, statement: str, answer: str) -> Any:
        """The question set's ``statement_relevant``, with ``answer`` when it takes one (a user question set written
        for the two-argument form still works)."""
        if takes(self.question_set.statement_relevant, "answer"):
            return self.question_set.statement_relevant(question, statement, answer=answer)
        return self.question_set.statement_relevant(question, statement)


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """Reason built from the verdicts alone (hybrid mode without an LLM)."""
    n = len(judged)
    bad = [j for j in judged if j["verdict"] == "no"]
    unsure = [j for j in judged if j["verdict"] == "borderline"]
    undecided = [j for j in judged if j["verdict"] == "unsure"]
    note = weighted_note(judged)
    if not bad and not unsure and not undecided:
        return f"The score is {score:.2f} because all {n} statements of the output are relevant to the input{note}."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"{j['statement']!r}" + (f" (P(relevant)={p:.2f})" if p is not None else "")

    parts = [
        f"The score is {score:.2f}: {n - len(bad) - len(undecided)} of {n} statements count as relevant{note}."
    ]
    if bad:
        parts.append(f"Irrelevant to the input: {'; '.join(show(j) for j in bad)}.")
    if unsure:
        parts.append(f"Borderline (counted as relevant): {'; '.join(show(j) for j in unsure)}.")
    if undecided:
        parts.append(
            f"Unsure (the judge could not tell; counted by probability): {'; '.join(show(j) for j in undecided)}."
        )
    return " ".join(parts)
