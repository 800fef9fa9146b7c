"""RoleAdherenceMetric: the share of the assistant's turns that stay in the role the test case's ``chatbot_role``
describes.

deepeval 4.3.1's algorithm (read from its source, parity in bench/safety_parity.py): ``chatbot_role`` is required
(``None`` raises ``MissingTestCaseParamsError``); the LLM lists the assistant turns that break the role in one call
(``OutOfCharacterResponseVerdicts``: index and reason); ``score = (assistant turns - out of character) / assistant
turns``; no assistant turn -> 1.0. hybrid: System One decides every assistant turn (P(yes) >= 0.5 is in character)
in one request with the role and the conversation once in the state; the LLM writes the reason. system_one: three
whole-metric questions over ``turns`` and ``chatbot_role`` (weights 2, 1, 1).

ours: an out-of-character verdict counts once per assistant turn (4.3.1 counts the verdicts its judge lists, so a
repeated index, or the index of a user turn, lowers its score). The LLM's reply must name assistant turns: a verdict
whose index is no assistant turn (a user turn, past the end, negative) is a judge error, so the layer re-asks once
and then the row is an error (never ignored, which would score the turn in character).
No offline tier was measured: with no judge configured the measure says what to configure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.errors import MissingTestCaseParamsError
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
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.metrics.role_adherence.prompts import RoleAdherenceTemplate
from deepeval.metrics.role_adherence.questions import RoleAdherenceQuestions
from deepeval.metrics.role_adherence.schema import (
    OutOfCharacterResponseVerdict,
    OutOfCharacterResponseVerdicts,
    RoleAdherenceScoreReason,
)
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import ConversationalTestCase

NO_ASSISTANT_REASON = (
    "The score is 1.00 because the conversation has no assistant turn, so none breaks the role."
)


class RoleAdherenceMetric(NoOfflineTier, EngineMetric, BaseConversationalMetric):
    """Share of assistant turns that stay in character as ``chatbot_role``. Score in [0, 1]; higher is better.
    Requires a ``ConversationalTestCase`` with ``chatbot_role``. Constructor: see :class:`EngineMetric`
    (deepeval 4.3.1's parameters and order)."""

    default_template = RoleAdherenceTemplate
    default_question_set = RoleAdherenceQuestions
    reason_schema = RoleAdherenceScoreReason

    @property
    def __name__(self) -> str:
        return "Role Adherence"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)
        if test_case.chatbot_role is None:
            raise MissingTestCaseParamsError(
                f"{self.__name__} needs the test case's chatbot_role (the role the assistant plays), which is None"
            )

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        from deepeval.metrics._engine.extractor import LLMExtractor

        return LLMExtractor(llm)  # nothing is extracted: the assistant turns are judged as they are

    def _system_one_request(self, test_case: ConversationalTestCase) -> tuple[Any, list[WeightedQuestion]]:
        turns = turn_dicts(test_case.turns)
        role = str(test_case.chatbot_role)
        return {"turns": turns, "chatbot_role": role}, list(self.question_set.whole_metric(turns, role))

    async def _evaluate(self, test_case: ConversationalTestCase, ctx: MeasureContext) -> Outcome:
        turns = test_case.turns
        role = str(test_case.chatbot_role)
        ctx.log("Chatbot role", role)
        assistant = [i for i, t in enumerate(turns) if t.role == "assistant"]
        if not assistant:
            return Outcome(1.0, NO_ASSISTANT_REASON, {"assistant_turns": 0})
        decisions = await self._judge(ctx, turns, role, assistant)
        score, weights = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {
                "turn": i,
                "ai_message": f"{turns[i].content} (turn #{i + 1})",
                **d.as_log(),
                **({"weight": round(weights[q], 4)} if q in weights else {}),
            }
            for i, (q, d) in zip(assistant, decisions.items(), strict=True)
        ]
        broken = OutOfCharacterResponseVerdicts(
            verdicts=[
                OutOfCharacterResponseVerdict(
                    index=j["turn"], reason=j.get("reason") or "", ai_message=j["ai_message"]
                )
                for j in judged
                if j["verdict"] == "no"
            ]
        )
        ctx.log_verdicts("Verdicts (yes = in character)", judged)
        breakdown: dict[str, Any] = {
            "assistant_turns": len(assistant),
            "in_character": sum(d.verdict == "yes" for d in decisions.values()),
            "out_of_character": sum(d.verdict == "no" for d in decisions.values()),
            **decision_sources(decisions),
        }
        reason = await self._reason(ctx, score, judged, role) if ctx.include_reason else None
        # deepeval's attribute after a measure: the assistant turns out of character
        return Outcome(score, reason, breakdown, units={"out_of_character_verdicts": broken})

    async def _judge(
        self, ctx: MeasureContext, turns: Sequence[Any], role: str, assistant: list[int]
    ) -> dict[str, Decision]:
        """One decision per assistant turn (ids ``t<index>``; yes = in character). The LLM lists the turns out of
        character in one call; every other assistant turn it was asked about is in character."""
        ids = {f"t{i}": i for i in assistant}

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            assert ctx.llm is not None
            prompt = call_template(
                self.evaluation_template.extract_out_of_character_response_verdicts,
                turns=turn_dicts(turns),
                role=role,
                multimodal=False,
            )
            reply: Any = await a_generate_structured(
                ctx.llm, prompt, OutOfCharacterResponseVerdicts, check=_NamesAssistantTurns(assistant)
            )
            broken = {v.index: v.reason for v in reply.verdicts}
            return {
                q: Decision("no", None, "llm", broken[ids[q]])
                if ids[q] in broken
                else Decision("yes", None, "llm", None)
                for q in subset
            }

        return await decide(
            ctx,
            state={"note": STATE_NOTE, "chatbot_role": role, "turns": turn_dicts(turns)},
            questions={
                q: self.question_set.turn_in_character(i, turns[i].content, role) for q, i in ids.items()
            },
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )

    async def _reason(
        self, ctx: MeasureContext, score: float, judged: list[dict[str, Any]], role: str
    ) -> str:
        """The LLM's reason (ours: ``generate_reason(score, judged, role)``; a template written for deepeval 4.3.1
        gets ``score``, ``role`` and ``out_of_character_responses``); with no LLM, one written from the verdicts."""
        if ctx.llm is None:
            return deterministic_reason(score, judged)
        method = self.evaluation_template.generate_reason
        if takes(method, "judged"):
            prompt = call_template(method, score=score, judged=judged, role=role)
        else:
            broken = [j["ai_message"] for j in judged if j["verdict"] == "no"]
            prompt = call_template(method, score=score, role=role, out_of_character_responses=broken)
        reply: Any = await a_generate_structured(ctx.llm, prompt, RoleAdherenceScoreReason)
        return str(reply.reason)


class _NamesAssistantTurns:
    """A ``check=`` for the out-of-character verdicts: every index is an assistant turn of the conversation.

    Raises (when called):
        ValueError: a verdict names no assistant turn (the structured-output layer re-asks once with this message).
    """

    def __init__(self, assistant: Sequence[int]) -> None:
        self.assistant = frozenset(assistant)
        self.listed = ", ".join(str(i) for i in sorted(self.assistant))

    def __call__(self, reply: OutOfCharacterResponseVerdicts) -> None:
        wrong = sorted({v.index for v in reply.verdicts} - self.assistant)
        if wrong:
            raise ValueError(
                f"verdict index {', '.join(map(str, wrong))} names no assistant turn; an index is the 0-based position "
                f"of an assistant turn in the conversation, one of: {self.listed}"
            )


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """The reason written from the verdicts alone (no LLM)."""
    n = len(judged)
    broken = [j for j in judged if j["verdict"] == "no"]
    if not broken:
        return f"The score is {score:.2f} because all {n} assistant turns stay in character."
    shown = "; ".join(
        f"turn {j['turn']}" + (f" (P(in character)={j['p_yes']:.2f})" if j.get("p_yes") is not None else "")
        for j in broken
    )
    return f"The score is {score:.2f}: {n - len(broken)} of {n} assistant turns stay in character. Out of character: {shown}."
