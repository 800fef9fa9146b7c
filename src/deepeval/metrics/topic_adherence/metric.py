"""TopicAdherenceMetric: whether an assistant answers the questions about its ``relevant_topics`` and declines the
others, over a conversation, as deepeval 4.3.1 measures it.

The turns are cut into exchanges (as goal accuracy cuts them); the LLM lists each exchange's question-answer
pairs; each pair gets a verdict: TP (on topic, answered), FN (on topic, not answered), FP (off topic, answered), TN
(off topic, declined). Score = (TP + TN) / pairs; no pair: 0.0.

* ``llm``: the LLM gives each verdict and writes the reason;
* ``hybrid``: System One answers two yes/no questions per pair (on topic? answered? P >= 0.5 is yes), the LLM
  covering a failed call; the LLM extracts the pairs and writes the reason;
* ``system_one``: one request over the turns and the topics: a yes/no question per topic (weight 1) and one on
  declining off-topic questions (weight = number of topics);
* no judge configured: a ``ConfigurationError`` naming what to configure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.agent_trace import exchanges
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.scoring import success_of
from deepeval.metrics.topic_adherence.prompts import TopicAdherenceTemplate
from deepeval.metrics.topic_adherence.questions import TopicAdherenceQuestions
from deepeval.metrics.topic_adherence.schema import QAPair, QAPairs, RelevancyVerdict, TopicAdherenceReason
from deepeval.models.structured import a_generate_structured

NO_PAIRS_REASON = "There were no question-answer pairs to evaluate."
LABELS = ("TP", "TN", "FP", "FN")


def _lines(reasons: list[str]) -> str:
    return "\n".join(f"- {r}" for r in reasons) if reasons else "(none)"


class TopicAdherenceMetric(AgentJudgedMetric, BaseConversationalMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``turns`` and ``relevant_topics``."""

    default_template = TopicAdherenceTemplate
    default_question_set = TopicAdherenceQuestions
    judged_what = "topic adherence check"

    def __init__(
        self,
        relevant_topics: list[str],
        threshold: float | None = 0.5,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
    ) -> None:
        if isinstance(relevant_topics, str) or not all(isinstance(t, str) for t in relevant_topics):
            raise TypeError("relevant_topics must be a list of topic names (str)")
        self.relevant_topics = list(relevant_topics)
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
        )

    @property
    def __name__(self) -> str:
        return "Topic Adherence"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg["relevant_topics"] = list(self.relevant_topics)
        return cfg

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        turns = [{"role": t.role, "content": t.content} for t in test_case.turns]
        state = {"turns": turns, "relevant_topics": list(self.relevant_topics)}
        return state, list(self.question_set.whole_metric(list(self.relevant_topics)))

    async def _pairs(self, ctx: MeasureContext, test_case: Any) -> list[QAPair]:
        assert ctx.llm is not None
        llm = ctx.llm
        prompts = [
            self.evaluation_template.get_qa_pairs(
                conversation="\n\n".join(f"{t.role}\n{t.content}" for t in unit)
            )
            for unit in exchanges(test_case.turns)
        ]
        replies = await ctx.gather(*(a_generate_structured(llm, p, QAPairs) for p in prompts))
        return [pair for reply in replies for pair in reply.qa_pairs]

    async def _verdicts(self, ctx: MeasureContext, pairs: Sequence[QAPair]) -> list[tuple[str, str]]:
        """``(label, reason)`` per pair."""

        async def one(pair: QAPair) -> tuple[str, str]:
            async def llm_decide(ids: Sequence[str]) -> Mapping[str, Decision]:
                assert ctx.llm is not None
                prompt = self.evaluation_template.get_qa_pair_verdict(
                    relevant_topics=self.relevant_topics, question=pair.question, response=pair.response
                )
                reply = await a_generate_structured(ctx.llm, prompt, RelevancyVerdict)
                on_topic, answered = reply.verdict in ("TP", "FN"), reply.verdict in ("TP", "FP")
                values = {"on_topic": on_topic, "answered": answered}
                return {i: Decision("yes" if values[i] else "no", None, "llm", reply.reason) for i in ids}

            state = {
                "relevant_topics": list(self.relevant_topics),
                "question": pair.question,
                "response": pair.response,
            }
            questions = {"on_topic": self.question_set.on_topic(), "answered": self.question_set.answered()}
            decided = await decide(
                ctx,
                state=state,
                questions=questions,
                to_verdict=binary_from_probability,
                llm_decide=llm_decide,
            )
            on_topic = decided["on_topic"].verdict == "yes"
            answered = decided["answered"].verdict == "yes"
            label = ("TP" if answered else "FN") if on_topic else ("FP" if answered else "TN")
            reason = decided["answered"].reason or decided["on_topic"].reason or f"decided: {label}"
            return label, reason

        return list(await ctx.gather(*(one(p) for p in pairs)))

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        pairs = await self._pairs(ctx, test_case)
        ctx.log("Question-answer pairs", [p.model_dump() for p in pairs])
        if not pairs:
            return Outcome(0.0, NO_PAIRS_REASON, {"pairs": 0})
        verdicts = await self._verdicts(ctx, pairs)
        by_label: dict[str, list[str]] = {label: [] for label in LABELS}
        for label, reason in verdicts:
            by_label[label].append(reason)
        score = (len(by_label["TP"]) + len(by_label["TN"])) / len(verdicts)
        judged = [
            {"question": p.question, "verdict": label, "reason": reason}
            for p, (label, reason) in zip(pairs, verdicts, strict=True)
        ]
        ctx.log_verdicts("Verdicts", judged)
        final: str | None = None
        if ctx.include_reason:
            assert ctx.llm is not None
            prompt = self.evaluation_template.generate_reason(
                success=success_of(score, self.threshold),
                score=score,
                threshold=self.threshold,
                true_positives_reason_line=_lines(by_label["TP"]),
                true_negatives_reason_line=_lines(by_label["TN"]),
                false_positives_reason_line=_lines(by_label["FP"]),
                false_negatives_reason_line=_lines(by_label["FN"]),
            )
            final = (await a_generate_structured(ctx.llm, prompt, TopicAdherenceReason)).reason
        breakdown = {"pairs": len(verdicts), **{label: len(by_label[label]) for label in LABELS}}
        return Outcome(score, final, breakdown)
