"""PromptAlignmentMetric: the share of the prompt's instructions that ``actual_output`` follows completely.

deepeval 4.3.1's algorithm (read from its source, parity in bench/safety_parity.py): ``prompt_instructions``
(required, first; an empty list raises ``ValueError``) are the units, nothing is extracted; the LLM gives one verdict
per instruction in one call (yes: followed); ``score = followed / instructions``. hybrid: System One decides every
instruction in one request over ``input`` and ``actual_output`` (P(yes) >= 0.5 is followed); the LLM writes the
reason. system_one: one yes/no question per instruction (weight 1 each), so the score is the mean P(followed). No
offline tier was measured: with no judge configured the measure says what to configure.

ours: each instruction must be a non-blank string (4.3.1 accepts anything).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources, llm_verdicts, share_score
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.metrics.prompt_alignment.names import REQUIRED_PARAMS
from deepeval.metrics.prompt_alignment.prompts import PromptAlignmentTemplate
from deepeval.metrics.prompt_alignment.questions import PromptAlignmentQuestions
from deepeval.metrics.prompt_alignment.schema import PromptAlignmentScoreReason, Verdicts
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import LLMTestCase


def check_instructions(prompt_instructions: Any) -> list[str]:
    """``prompt_instructions`` as a list of strings.

    Raises:
        ValueError: not a non-empty list of non-blank strings (a single string is one instruction).
    """
    if isinstance(prompt_instructions, str):
        prompt_instructions = [prompt_instructions]
    if not isinstance(prompt_instructions, Sequence) or len(prompt_instructions) == 0:
        raise ValueError(
            f"prompt_instructions must be a non-empty list of instructions, got {prompt_instructions!r}"
        )
    if not all(isinstance(i, str) and i.strip() for i in prompt_instructions):
        raise ValueError(
            f"every prompt instruction must be a non-blank string, got {list(prompt_instructions)!r}"
        )
    return list(prompt_instructions)


class PromptAlignmentMetric(NoOfflineTier, EngineMetric):
    """Share of ``prompt_instructions`` the output follows. Score in [0, 1]; higher is better.

    Args (first, as in deepeval 4.3.1; then :class:`~deepeval.metrics._engine.metric.EngineMetric`'s):
        prompt_instructions: the instructions of the application's prompt the output must follow.

    Raises:
        ValueError: ``prompt_instructions`` empty or holding a blank or non-string item.
    """

    default_template = PromptAlignmentTemplate
    default_question_set = PromptAlignmentQuestions
    reason_schema = PromptAlignmentScoreReason

    def __init__(
        self,
        prompt_instructions: list[str],
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.prompt_instructions = check_instructions(prompt_instructions)
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
    def __name__(self) -> str:
        return "Prompt Alignment"

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), "prompt_instructions": list(self.prompt_instructions)}

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        from deepeval.metrics._engine.extractor import LLMExtractor

        return LLMExtractor(llm)  # nothing is extracted: the instructions are given

    def _system_one_request(self, test_case: LLMTestCase) -> tuple[Any, list[WeightedQuestion]]:
        state = {"input": test_case.input, "actual_output": test_case.actual_output}
        return state, list(self.question_set.whole_metric(self.prompt_instructions))

    async def _evaluate(self, test_case: LLMTestCase, ctx: MeasureContext) -> Outcome:
        instructions = self.prompt_instructions
        question, answer = test_case.input, test_case.actual_output or ""
        ids = [f"p{n}" for n in range(len(instructions))]
        by_id = dict(zip(ids, instructions, strict=True))

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            prompt = call_template(
                self.evaluation_template.generate_verdicts,
                prompt_instructions=[by_id[i] for i in subset],
                input=question,
                actual_output=answer,
            )
            return await llm_verdicts(ctx.llm, prompt, Verdicts, subset)

        decisions = await decide(
            ctx,
            state={"note": STATE_NOTE, "input": question, "actual_output": answer},
            questions={i: self.question_set.instruction_followed(by_id[i]) for i in ids},
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )
        score, weights = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {
                "instruction": by_id[i],
                **d.as_log(),
                **({"weight": round(weights[i], 4)} if i in weights else {}),
            }
            for i, d in decisions.items()
        ]
        ctx.log_verdicts("Verdicts (yes = followed)", judged)
        breakdown: dict[str, Any] = {
            "instructions": len(instructions),
            **{v: sum(d.verdict == v for d in decisions.values()) for v in ("yes", "no")},
            **decision_sources(decisions),
        }
        reason = await self._reason(ctx, score, judged, question, answer) if ctx.include_reason else None
        return Outcome(score, reason, breakdown)

    async def _reason(
        self, ctx: MeasureContext, score: float, judged: list[dict[str, Any]], question: str, answer: str
    ) -> str:
        """The LLM's reason (ours: ``generate_reason(score, judged)``; a template written for deepeval 4.3.1 gets
        ``unalignment_reasons``, ``input``, ``actual_output`` and ``score`` formatted ``"0.50"``); with no LLM, one
        written from the verdicts."""
        if ctx.llm is None:
            return deterministic_reason(score, judged)
        method = self.evaluation_template.generate_reason
        if takes(method, "judged"):
            prompt = method(score, judged)
        else:
            prompt = call_template(
                method,
                unalignment_reasons=[j.get("reason") for j in judged if j["verdict"] == "no"],
                input=question,
                actual_output=answer,
                score=format(score, ".2f"),
            )
        reply: Any = await a_generate_structured(ctx.llm, prompt, PromptAlignmentScoreReason)
        return str(reply.reason)


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """The reason written from the verdicts alone (no LLM)."""
    n = len(judged)
    broken = [j for j in judged if j["verdict"] == "no"]
    if not broken:
        return f"The score is {score:.2f} because the output follows all {n} prompt instructions."
    shown = "; ".join(repr(j["instruction"]) for j in broken)
    return f"The score is {score:.2f}: the output follows {n - len(broken)} of {n} prompt instructions. Not followed: {shown}."
