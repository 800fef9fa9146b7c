"""TurnRelevancyMetric: the share of the assistant's replies that are relevant to the conversation so far.

deepeval 4.3.1's algorithm (read from its source, parity in bench/safety_parity.py): the turns are cut into exchanges
(a user turn and the assistant turns answering it, :mod:`deepeval.metrics._engine.turns`); for each exchange, a
window of the last ``window_size`` exchanges (default 10; shorter at the conversation's start) gets one verdict on
its last assistant reply (yes: relevant); ``score = relevant / windows``; no exchange -> 1.0. hybrid: System One
decides every window (P(yes) >= 0.5 is relevant) in one request whose state holds the conversation once; the LLM
writes the reason. system_one: three whole-metric questions over ``turns`` (weights 2, 1, 1). No offline tier was
measured for these questions: with no judge configured the measure says what to configure.

A long conversation stays linear: windows are index ranges, each window's turns are built only for its own prompt,
and logs name windows by turn positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources, share_score
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.turns import exchanges, turn_dicts, windows
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.metrics.turn_relevancy.prompts import TurnRelevancyTemplate
from deepeval.metrics.turn_relevancy.questions import TurnRelevancyQuestions
from deepeval.metrics.turn_relevancy.schema import TurnRelevancyScoreReason, TurnRelevancyVerdict
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import ConversationalTestCase

NO_EXCHANGES_REASON = (
    "The score is 1.00 because no assistant reply follows a user turn, so there is no reply to judge."
)


def check_window_size(window_size: Any) -> int:
    """``window_size`` as a positive int.

    Raises:
        ValueError: not an int of 1 or more (deepeval 4.3.1 accepts 0 and then judges empty windows).
    """
    if isinstance(window_size, bool) or not isinstance(window_size, int) or window_size < 1:
        raise ValueError(f"window_size must be a whole number of exchanges, 1 or more; got {window_size!r}")
    return window_size


class TurnRelevancyMetric(NoOfflineTier, EngineMetric, BaseConversationalMetric):
    """Share of the assistant's replies that are relevant, each judged in a window of the last ``window_size``
    exchanges. Score in [0, 1]; higher is better. Requires a ``ConversationalTestCase``.

    Args (besides :class:`~deepeval.metrics._engine.metric.EngineMetric`'s, in deepeval 4.3.1's order):
        window_size: exchanges per window (1 or more; default 10).
        template_class: accepted as in deepeval 4.3.1 and handed to template methods that name it.

    Raises:
        ValueError: ``window_size`` below 1 or not a whole number.
    """

    default_template = TurnRelevancyTemplate
    default_question_set = TurnRelevancyQuestions
    reason_schema = TurnRelevancyScoreReason

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
        window_size: int = 10,
        template_class: str | None = None,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.window_size = check_window_size(window_size)
        self.template_class = template_class
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
        return "Turn Relevancy"

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), "window_size": self.window_size}

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        from deepeval.metrics._engine.extractor import LLMExtractor

        return LLMExtractor(llm)  # nothing is extracted: each window is judged as it is

    def _system_one_request(self, test_case: ConversationalTestCase) -> tuple[Any, list[WeightedQuestion]]:
        turns = turn_dicts(test_case.turns)
        return {"turns": turns}, list(self.question_set.whole_metric(turns))

    async def _evaluate(self, test_case: ConversationalTestCase, ctx: MeasureContext) -> Outcome:
        turns = test_case.turns
        spans = list(windows(exchanges(turns), self.window_size))
        ctx.log("Windows (turn positions)", [f"{s}-{e - 1}" for s, e in spans])
        if not spans:
            return Outcome(1.0, NO_EXCHANGES_REASON, {"windows": 0, "window_size": self.window_size})
        decisions = await self._judge_windows(ctx, turns, spans)
        score, weights = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {
                "turn": e - 1,
                "window": f"{s}-{e - 1}",
                **d.as_log(),
                **({"weight": round(weights[i], 4)} if i in weights else {}),
            }
            for (s, e), (i, d) in zip(spans, decisions.items(), strict=True)
        ]
        ctx.log_verdicts("Verdicts (yes = relevant)", judged)
        counts = {v: sum(d.verdict == v for d in decisions.values()) for v in ("yes", "no")}
        breakdown: dict[str, Any] = {
            "windows": len(spans),
            "window_size": self.window_size,
            **counts,
            **decision_sources(decisions),
        }
        reason = await self._reason(ctx, score, judged) if ctx.include_reason else None
        return Outcome(score, reason, breakdown)

    async def _judge_windows(
        self, ctx: MeasureContext, turns: Sequence[Any], spans: Sequence[tuple[int, int]]
    ) -> dict[str, Decision]:
        """One decision per window (ids ``w0, w1, ...``; yes = its last assistant reply is relevant)."""
        ids = [f"w{i}" for i in range(len(spans))]
        by_id = dict(zip(ids, spans, strict=True))

        async def one(qid: str) -> tuple[str, Decision]:
            assert ctx.llm is not None
            s, e = by_id[qid]
            prompt = call_template(
                self.evaluation_template.generate_verdicts,
                sliding_window=turn_dicts(turns, s, e),
                template_class=self.template_class,
                multimodal=False,
            )
            reply: Any = await a_generate_structured(ctx.llm, prompt, TurnRelevancyVerdict)
            return qid, Decision(reply.verdict, None, "llm", reply.reason)

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            return dict(await ctx.gather(*(one(q) for q in subset)))

        if ctx.mode is EvalMode.LLM or ctx.system_one is None:
            ctx.llm_used = True
            return dict(await llm_decide(ids))
        return await decide(
            ctx,
            state={"note": STATE_NOTE, "turns": turn_dicts(turns)},
            questions={
                q: self.question_set.window_relevant(s, e, turn_dicts(turns, s, e))
                for q, (s, e) in by_id.items()
            },
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )

    async def _reason(self, ctx: MeasureContext, score: float, judged: list[dict[str, Any]]) -> str:
        """The LLM's reason (ours: ``generate_reason(score, judged)``; a template written for deepeval 4.3.1 gets
        ``score`` and ``irrelevancies``); with no LLM, one written from the verdicts."""
        if ctx.llm is None:
            return deterministic_reason(score, judged)
        method = self.evaluation_template.generate_reason
        if takes(method, "judged"):
            prompt = method(score, judged)
        else:
            irrelevancies = [
                {"message number": str(n), "reason": j.get("reason")}
                for n, j in enumerate(judged, start=1)
                if j["verdict"] == "no"
            ]
            prompt = call_template(
                method, score=score, irrelevancies=irrelevancies, template_class=self.template_class
            )
        reply: Any = await a_generate_structured(ctx.llm, prompt, TurnRelevancyScoreReason)
        return str(reply.reason)


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """The reason written from the verdicts alone (no LLM)."""
    n = len(judged)
    off = [j for j in judged if j["verdict"] == "no"]
    if not off:
        return f"The score is {score:.2f} because all {n} assistant replies judged are relevant to the conversation."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"turn {j['turn']}" + (f" (P(relevant)={p:.2f})" if p is not None else "")

    return (
        f"The score is {score:.2f}: {n - len(off)} of {n} assistant replies are relevant. "
        f"Irrelevant: {'; '.join(show(j) for j in off)}."
    )
