"""Base of the plan checks (plan adherence, plan quality), as deepeval 4.3.1 runs them (checked by running it:
``bench/agents_parity.py --judged``).

* ``llm`` / ``hybrid``: the LLM reads the task and the agent's plan from the trace; no plan found scores 1.0 with a
  reason saying so (nothing to judge); else one graded judgement (5 levels): the LLM's ``{"score", "reason"}``, or in
  hybrid a System One graded question with the LLM covering a failed call (:mod:`.single_score`).
* ``system_one``: one request of three choice questions whose options carry credits (1.0, 0.75 ... 0.0) and a
  "the agent states no plan" option that makes the question not applicable (its probability 0.5 or more). Each
  applicable question's value is the credit-weighted mean over its applicable options; the score is the weighted
  mean of the applicable questions (weights 2, 1, 1), 1.0 when none applies. Strict mode: every applicable
  question's most probable applicable option must earn full credit.

Without a trace the judge reads the input, the final output and the tools called in its place (4.3.1 hands its
prompts the JSON ``null``; its system_one mode reads those fields, as ours does in every mode).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from deepeval.errors import ErrorKind, SystemOneError
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome, _judge_copy
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import compact_trace, run_text, tools_json, trace_of
from deepeval.metrics.result import MeasureResult, Usage
from deepeval.models.base_model import judge_name
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.schema import ChoiceQuestion, SystemOneAnswers

#: a choice question does not apply when its not-applicable options hold this much probability or more
NOT_APPLICABLE_AT = 0.5
#: the score when no question applies (the agent states no plan)
NO_PLAN_SCORE = 1.0


class Task(BaseModel):
    """The task read from a trace (deepeval 4.3.1's class name)."""

    task: str


class AgentPlan(BaseModel):
    """The plan read from a trace (deepeval 4.3.1's class name)."""

    plan: list[str]


@dataclass(frozen=True)
class CreditedChoice:
    """A choice question whose options earn credits; an option with credit None means "does not apply"."""

    id: str
    weight: float
    instructions: str
    credits: dict[str, float | None]
    label: str
    kind: str

    def question(self) -> ChoiceQuestion:
        return ChoiceQuestion(
            instructions=self.instructions, options=dict.fromkeys(self.credits), kind=self.kind
        )


@dataclass(frozen=True)
class ChoiceValue:
    choice: CreditedChoice
    value: float | None  # None: not applicable
    passed: bool | None
    confidence: float
    probabilities: dict[str, float]


def choice_values(
    choices: Sequence[CreditedChoice], answers: SystemOneAnswers, model: str, metric: str
) -> list[ChoiceValue]:
    """Each question's value (see module docstring).

    Raises:
        SystemOneError: kind ``missing_answer``: a question has no choice answer (system_one mode has no fallback).
    """
    out = []
    for c in choices:
        answer = answers.choices.get(c.id)
        if answer is None:
            raise SystemOneError(
                f"{metric}: System One model {model} gave no answer for {c.id}; system_one mode has no fallback "
                "(use eval_mode='hybrid' or 'llm' to let an LLM decide)",
                model=model,
                kind=ErrorKind.missing_answer,
            )
        probs = {name: float(answer.probabilities.get(name, 0.0)) for name in c.credits}
        if not any(probs.values()):
            probs[answer.choice] = 1.0
        applicable = {n: credit for n, credit in c.credits.items() if credit is not None}
        na_mass = sum(p for n, p in probs.items() if c.credits[n] is None)
        mass = sum(probs[n] for n in applicable)
        if na_mass >= NOT_APPLICABLE_AT or mass <= 0:
            out.append(ChoiceValue(c, None, None, answer.confidence, probs))
            continue
        value = sum(probs[n] * credit for n, credit in applicable.items()) / mass
        best = max(applicable, key=lambda n: probs[n])
        out.append(ChoiceValue(c, value, applicable[best] >= 1.0, answer.confidence, probs))
    return out


class PlanJudgedMetric(AgentJudgedMetric):
    """See the module docstring. A subclass sets the ClassVars and the folder's templates and questions."""

    requires_trace = True
    #: the graded levels of the llm/hybrid judgement (worst first) and how its reasons name it
    levels: ClassVar[list[str]] = []
    #: the reply class of the LLM's judgement (``score``, ``reason``)
    score_schema: ClassVar[type[BaseModel]]
    #: the reason when no plan is found
    no_plan_reason: ClassVar[str] = ""
    #: the System One kind of the hybrid judgement
    hybrid_kind: ClassVar[str] = ""

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, ("input", "actual_output"), self.__name__)

    # -- llm / hybrid ----------------------------------------------------------------------------------------------
    def judgement_state(self, task: str, plan: list[str], test_case: Any) -> dict[str, Any] | None:
        """The System One state of the hybrid judgement; None: the LLM judges (no System One question)."""
        return {"task": task, "plan": plan}

    def judgement_prompt(self, task: str, plan: list[str], test_case: Any) -> str:
        raise NotImplementedError

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        assert ctx.llm is not None
        template = self.evaluation_template
        text = run_text(test_case)
        task_reply, plan_reply = await ctx.gather(
            a_generate_structured(ctx.llm, template.extract_task_from_trace(trace_json=text), Task),
            a_generate_structured(ctx.llm, template.extract_plan_from_trace(trace_json_str=text), AgentPlan),
        )
        task, plan = task_reply.task, [str(step) for step in plan_reply.plan]
        ctx.log("Task", task)
        ctx.log("Agent plan", plan)
        if not plan:
            return Outcome(
                NO_PLAN_SCORE, self.no_plan_reason, {"task": task, "plan": [], "plan_found": False}
            )
        state = self.judgement_state(task, plan, test_case)
        graded = await decide_score(
            ctx,
            ScoreAsk(
                what=self.judged_what,
                prompt=lambda: self.judgement_prompt(task, plan, test_case),
                schema=self.score_schema,
                instructions=self.question_set.judgement(),
                levels=list(self.levels),
                state=state or {},
                kind=self.hybrid_kind,
                system_one=state is not None,
            ),
        )
        ctx.log(
            "Judgement", {"score": graded.score, "decided_by": graded.decided_by, "reason": graded.reason}
        )
        return Outcome(
            graded.score,
            graded.reason,
            {"task": task, "plan": plan, "plan_found": True, "decided_by": graded.decided_by},
        )

    # -- system_one ------------------------------------------------------------------------------------------------
    def _choices(self, test_case: Any) -> list[CreditedChoice]:
        return list(self.question_set.whole_metric(has_trace=trace_of(test_case) is not None))

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        trace = trace_of(test_case)
        if trace is not None:
            state: dict[str, Any] = {"trace": compact_trace(trace)}
        else:
            state = {
                "input": test_case.input,
                "actual_output": test_case.actual_output,
                "tools_called": tools_json(test_case.tools_called),
            }
        questions = [
            WeightedQuestion(c.id, c.weight, c.question(), c.label)  # type: ignore[arg-type]
            for c in self._choices(test_case)
        ]
        return state, questions

    def system_one_result(
        self, test_case: Any, answers: SystemOneAnswers, cost: float | None
    ) -> MeasureResult:
        judges = self.judges()
        name = judge_name(judges.system_one) or "System One"
        if answers.model and answers.model not in name:
            name = f"{name} ({answers.model})"
        values = choice_values(self._choices(_judge_copy(test_case)), answers, name, self.__name__)
        applicable = [v for v in values if v.value is not None]
        if not applicable:
            score = NO_PLAN_SCORE
        elif self.strict_mode:
            score = 1.0 if all(v.passed for v in applicable) else 0.0
        else:
            weight = sum(v.choice.weight for v in applicable)
            score = sum(v.choice.weight * (v.value or 0.0) for v in applicable) / weight
        score = min(1.0, max(0.0, score))
        breakdown = {
            "questions": {
                v.choice.id: {
                    "weight": v.choice.weight,
                    "applicable": v.value is not None,
                    "value": None if v.value is None else round(v.value, 4),
                    "confidence": round(v.confidence, 4),
                }
                for v in values
            }
        }
        reason = self._choice_reason(values, name, score)
        return self._value(
            score,
            reason,
            breakdown,
            f"Eval mode: system_one\nJudge: {name}\n\n{reason}",
            confidence=min((v.confidence for v in values), default=None),
            evaluation_model=name,
            usage=Usage(answers.input_tokens, answers.output_tokens, cost),
        )

    def _choice_reason(self, values: list[ChoiceValue], judge: str, score: float) -> str:
        applicable = [v for v in values if v.value is not None]
        if not applicable:
            head = f"The score is {NO_PLAN_SCORE:.2f}: {judge} found no plan stated by the agent, so nothing to judge"
        else:
            head = f"The score is {score:.2f}: the weighted mean of {len(applicable)} applicable answers from {judge}"
            if self.strict_mode:
                head += " (strict mode: every applicable question must earn full credit)"
        lines = [head + "."]
        for v in values:
            best = max(v.probabilities, key=lambda n: v.probabilities[n])
            shown = "not applicable" if v.value is None else f"value {v.value:.2f}"
            lines.append(
                f"- [weight {v.choice.weight:g}] {v.choice.label}: most likely {best!r} ({shown}, confidence "
                f"{v.confidence:.2f})."
            )
        return "\n".join(lines)
