"""ArgumentCorrectnessMetric: the share of tool calls whose arguments are right for the input (deepeval 4.3.1's
behaviour, checked by running it: ``bench/agents_parity.py --judged``).

* no tool called: 1.0 ("No tool calls provided"), no judge call, in every mode;
* ``llm``: one LLM call gives a yes/no verdict per tool call; score = yes / calls; the LLM writes the reason from
  the "no" verdicts' reasons;
* ``hybrid``: System One answers one yes/no question per call (P >= 0.5 is yes) in one request, the LLM covering
  what it could not decide; the LLM writes the reason;
* ``system_one``: one request, three questions over ``input`` and ``tools_called``: ``(2 P1 + P2 + E/3) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure (no offline tier was measured).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources, llm_verdicts, share_score
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.agent_trace import tools_json
from deepeval.metrics.argument_correctness.names import REQUIRED_PARAMS
from deepeval.metrics.argument_correctness.prompts import ArgumentCorrectnessTemplate
from deepeval.metrics.argument_correctness.questions import ArgumentCorrectnessQuestions
from deepeval.metrics.argument_correctness.schema import ArgumentCorrectnessScoreReason, Verdicts
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.models.structured import a_generate_structured

NO_TOOL_CALLS_REASON = "No tool calls provided"


class ArgumentCorrectnessMetric(AgentJudgedMetric):
    """Share of the tool calls whose arguments are right for the input. Score in [0, 1]; higher is better.
    Requires ``input`` and ``tools_called``. Constructor: as every judged metric of this package."""

    default_template = ArgumentCorrectnessTemplate
    default_question_set = ArgumentCorrectnessQuestions
    final_reason_schema = ArgumentCorrectnessScoreReason
    judged_what = "argument correctness check"

    @property
    def __name__(self) -> str:
        return "Argument Correctness"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _degenerate(self, test_case: Any) -> Outcome | None:
        if not test_case.tools_called:
            return Outcome(1.0, NO_TOOL_CALLS_REASON, {"tool_calls": 0})
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        state = {"input": test_case.input, "tools_called": tools_json(test_case.tools_called)}
        return state, list(self.question_set.whole_metric())

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        calls = list(test_case.tools_called)
        decisions = await self._judge_calls(ctx, test_case.input, calls)
        score, _ = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {"tool_call": call.name, **d.as_log()} for call, d in zip(calls, decisions.values(), strict=True)
        ]
        ctx.log_verdicts("Verdicts", judged)
        breakdown = {
            "tool_calls": len(calls),
            "yes": sum(d.verdict == "yes" for d in decisions.values()),
            "no": sum(d.verdict == "no" for d in decisions.values()),
            **decision_sources(decisions),
        }
        reason = None
        if ctx.include_reason:
            assert ctx.llm is not None
            wrong = [
                d.reason or f"the arguments of {c.name} are not right"
                for c, d in zip(calls, decisions.values(), strict=True)
                if d.verdict == "no"
            ]
            prompt = self.evaluation_template.generate_reason(
                incorrect_tool_calls_reasons=wrong, input=test_case.input, score=f"{score:.2f}"
            )
            reason = (await a_generate_structured(ctx.llm, prompt, self.final_reason_schema)).reason
        return Outcome(score, reason, breakdown)

    async def _judge_calls(
        self, ctx: MeasureContext, user_input: str, calls: Sequence[Any]
    ) -> dict[str, Decision]:
        ids = [f"c{i}" for i in range(len(calls))]
        by_id = dict(zip(ids, calls, strict=True))

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            prompt = self.evaluation_template.generate_verdicts(
                input=user_input, stringified_tools_called=[by_id[i] for i in subset]
            )
            return await llm_verdicts(ctx.llm, prompt, Verdicts, subset)

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "input": user_input},
            questions={
                i: self.question_set.arguments_correct(user_input, tools_json([by_id[i]])[0]) for i in ids
            },
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )
