"""ConversationCompletenessMetric: the share of the user's intentions that the assistant satisfied.

deepeval 4.3.1's algorithm (read from its source, parity in bench/safety_parity.py): the LLM lists the user's
intentions from the whole conversation (``UserIntentions``), then gives one verdict per intention over the whole
conversation (yes: satisfied); ``score = satisfied / intentions``; no intentions -> 1.0 with no verdict call.
``window_size`` (default 3) is accepted and kept, as in 4.3.1, which does not use it. hybrid: the LLM lists the
intentions and writes the reason; System One decides every intention in one request (the conversation once in the
state; P(yes) >= 0.5 is satisfied). system_one: three whole-metric questions over ``turns`` (weights 2, 1, 1). No
offline tier was measured: with no LLM to list the intentions the measure says what to configure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources, share_score
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.turns import turn_dicts
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.conversation_completeness.prompts import ConversationCompletenessTemplate
from deepeval.metrics.conversation_completeness.questions import ConversationCompletenessQuestions
from deepeval.metrics.conversation_completeness.schema import (
    ConversationCompletenessScoreReason,
    ConversationCompletenessVerdict,
    UserIntentions,
)
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import ConversationalTestCase

NO_INTENTIONS_REASON = (
    "The score is 1.00 because the user expresses no intention in the conversation, so none is left unmet."
)


class ConversationCompletenessMetric(NoOfflineTier, EngineMetric, BaseConversationalMetric):
    """Share of the user's intentions the assistant satisfied by the end of the conversation. Score in [0, 1];
    higher is better. Requires a ``ConversationalTestCase``.

    Args (besides :class:`~deepeval.metrics._engine.metric.EngineMetric`'s, in deepeval 4.3.1's order):
        window_size: accepted and kept (default 3), as in deepeval 4.3.1, which does not use it.
    """

    default_template = ConversationCompletenessTemplate
    default_question_set = ConversationCompletenessQuestions
    reason_schema = ConversationCompletenessScoreReason

    def __init__(
        self,
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        window_size: int = 3,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.window_size = window_size
        self.user_intentions: list[str] = []
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
        return "Conversation Completeness"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        from deepeval.metrics._engine.extractor import LLMExtractor

        return LLMExtractor(llm)  # the intentions come from the template's own prompt

    def _system_one_request(self, test_case: ConversationalTestCase) -> tuple[Any, list[WeightedQuestion]]:
        turns = turn_dicts(test_case.turns)
        return {"turns": turns}, list(self.question_set.whole_metric(turns))

    async def _intentions(self, ctx: MeasureContext, turns: list[dict[str, str]]) -> list[str]:
        if ctx.llm is None:
            raise ConfigurationError(
                f"{self.__name__} lists the user's intentions with an LLM judge, and none is configured: set "
                "OPENAI_API_KEY, USE_LOCAL_MODEL=YES with LOCAL_MODEL_BASE_URL, or pass model=; or run it with "
                "eval_mode='system_one' and a System One model (TYPESAFE_API_KEY or system_one_model=)"
            )
        prompt = call_template(
            self.evaluation_template.extract_user_intentions, turns=turns, multimodal=False
        )
        reply: Any = await a_generate_structured(ctx.llm, prompt, UserIntentions)
        return [s.strip() for s in reply.intentions if isinstance(s, str) and s.strip()]

    async def _evaluate(self, test_case: ConversationalTestCase, ctx: MeasureContext) -> Outcome:
        turns = turn_dicts(test_case.turns)
        intentions = await self._intentions(ctx, turns)
        attributes = {"user_intentions": list(intentions)}  # deepeval's attribute after a measure
        ctx.log("User intentions", intentions)
        if not intentions:
            return Outcome(1.0, NO_INTENTIONS_REASON, {"intentions": 0}, units=attributes)
        decisions = await self._judge(ctx, turns, intentions)
        score, weights = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {"intention": text, **d.as_log(), **({"weight": round(weights[i], 4)} if i in weights else {})}
            for text, (i, d) in zip(intentions, decisions.items(), strict=True)
        ]
        ctx.log_verdicts("Verdicts (yes = satisfied)", judged)
        breakdown: dict[str, Any] = {
            "intentions": len(intentions),
            **{v: sum(d.verdict == v for d in decisions.values()) for v in ("yes", "no")},
            **decision_sources(decisions),
        }
        reason = await self._reason(ctx, score, judged, intentions) if ctx.include_reason else None
        return Outcome(score, reason, breakdown, units=attributes)

    async def _judge(
        self, ctx: MeasureContext, turns: list[dict[str, str]], intentions: Sequence[str]
    ) -> dict[str, Decision]:
        """One decision per intention (ids ``i0, i1, ...``; yes = satisfied)."""
        by_id = {f"i{n}": text for n, text in enumerate(intentions)}

        async def one(qid: str) -> tuple[str, Decision]:
            assert ctx.llm is not None
            prompt = call_template(
                self.evaluation_template.generate_verdicts,
                turns=turns,
                intention=by_id[qid],
                multimodal=False,
            )
            reply: Any = await a_generate_structured(ctx.llm, prompt, ConversationCompletenessVerdict)
            return qid, Decision(reply.verdict, None, "llm", reply.reason)

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            return dict(await ctx.gather(*(one(q) for q in subset)))

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "turns": turns},
            questions={q: self.question_set.intention_satisfied(text) for q, text in by_id.items()},
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )

    async def _reason(
        self, ctx: MeasureContext, score: float, judged: list[dict[str, Any]], intentions: list[str]
    ) -> str:
        """The LLM's reason (ours: ``generate_reason(score, judged)``; a template written for deepeval 4.3.1 gets
        ``score``, ``incompletenesses`` and ``intentions``)."""
        assert ctx.llm is not None
        method = self.evaluation_template.generate_reason
        if takes(method, "judged"):
            prompt = method(score, judged)
        else:
            incompletenesses = [j.get("reason") for j in judged if j["verdict"] == "no"]
            prompt = call_template(
                method,
                score=score,
                incompletenesses=incompletenesses,
                intentions=intentions,
                multimodal=False,
            )
        reply: Any = await a_generate_structured(ctx.llm, prompt, ConversationCompletenessScoreReason)
        return str(reply.reason)
