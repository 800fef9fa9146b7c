"""KnowledgeRetentionMetric: does the assistant keep what the user told it? (REFERENCE §2-§4)

llm: facts are extracted from every user turn (all user turns concurrently, earlier turns as context); every
assistant turn that has earlier facts gets a verdict (yes = it forgets or contradicts them or re-asks for them;
clarifying or confirming is not attrition), assistant turns concurrently, each as soon as the facts of the user
turns before it are extracted (not after every extraction of the conversation: a turn's request leaves when its
inputs exist). Facts reach the verdict oldest first; a fact
that a later user turn supersedes (a correction) is dropped from then on (see ``_engine/facts.py``). ``score = no-verdicts / verdicts``; no verdicts -> 1.0 (so a
conversation of one user and one assistant turn with nothing to check scores 1.0; ours: deepeval scores it 0).
hybrid: System One decides every checked turn in ONE request. system_one: three whole-metric questions.

Nothing to check without any judge call, in every mode: when no assistant turn comes after a user turn with words
(an assistant-only conversation, a user turn with no reply, assistant turns only before the user speaks) the score
is 1.0 with a reason. Whether a user turn states facts takes a judge, so in llm/hybrid a reply to a user turn without
facts ("Hello there") still scores 1.0 after the fact extraction finds none, and in system_one the judge decides.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import decide, decision_sources
from deepeval.metrics._engine.extractor import FactChanges, LLMExtractor
from deepeval.metrics._engine.facts import TurnsBefore, apply_changes, fact_changes
from deepeval.metrics._engine.judges import gather_all
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_turns
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.knowledge_retention.prompts import KnowledgeRetentionTemplate
from deepeval.metrics.knowledge_retention.questions import DECISION_NOTE, KnowledgeRetentionQuestions
from deepeval.metrics.knowledge_retention.schema import (
    Knowledge,
    KnowledgeRetentionScoreReason,
    KnowledgeRetentionVerdict,
)
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import ConversationalTestCase

NOTHING_TO_CHECK_REASON = (
    "The score is 1.00 because no assistant turn follows a user turn that states facts, so there is nothing the "
    "assistant could have forgotten."
)


class KnowledgeRetentionMetric(EngineMetric, BaseConversationalMetric):
    """Share of checked assistant turns that keep the user's earlier facts. Score in [0, 1]; higher is better.
    Requires a ``ConversationalTestCase`` (``turns``). Constructor: see :class:`EngineMetric`."""

    default_template = KnowledgeRetentionTemplate
    default_question_set = KnowledgeRetentionQuestions
    reason_schema = KnowledgeRetentionScoreReason

    @property
    def __name__(self) -> str:
        return "Knowledge Retention"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        extract_data = getattr(self.evaluation_template, "extract_data", None)
        if callable(extract_data):  # a template written for deepeval 4.3.1
            return _KnowledgeDataExtractor(llm, extract_data)
        return LLMExtractor(llm, facts_prompt=self.evaluation_template.extract_facts)

    def _degenerate(self, test_case: ConversationalTestCase) -> Outcome | None:
        """Nothing to check, in every mode and without a judge: no assistant turn comes after a user turn with words
        (only such a turn can state a fact the assistant could forget)."""
        spoke = False
        for turn in test_case.turns:
            if turn.role == "user":
                spoke = spoke or has_words(turn.content)
            elif spoke:
                return None
        return Outcome(
            1.0,
            NOTHING_TO_CHECK_REASON,
            {
                "user_turns": sum(t.role == "user" for t in test_case.turns),
                "assistant_turns": sum(t.role == "assistant" for t in test_case.turns),
                "checked_turns": 0,
                "attritions": 0,
                "retained": 0,
            },
        )

    def _system_one_request(self, test_case: ConversationalTestCase) -> tuple[Any, list[WeightedQuestion]]:
        turns = [{"role": t.role, "content": t.content} for t in test_case.turns]
        # system_one mode: the state's fields are the data and no question quotes content, so no data note
        return {"turns": turns}, list(self.question_set.whole_metric(turns))

    async def _evaluate(self, test_case: ConversationalTestCase, ctx: MeasureContext) -> Outcome:
        checks, decisions, breakdown = await self._judge_turns(ctx, test_case.turns)
        if not checks:
            ctx.log("Verdicts", [])
            return Outcome(1.0, NOTHING_TO_CHECK_REASON, {**breakdown, "attritions": 0, "retained": 0})
        judged = [
            {
                "turn": checks[q]["turn"],
                "assistant_message": checks[q]["message"],
                "facts": checks[q]["facts"],
                "attrition": d.verdict == "yes",
                **d.as_log(),
            }
            for q, d in decisions.items()
        ]
        ctx.log_verdicts("Verdicts (yes = attrition)", judged)
        attritions = sum(d.verdict == "yes" for d in decisions.values())
        unsure = [d for d in decisions.values() if d.unsure]
        # a turn no judge stage was sure of counts by its P(attrition), never rounded to a side
        expected = attritions + sum(d.probability or 0.0 for d in unsure)
        score = (len(decisions) - expected) / len(decisions)
        breakdown.update(
            attritions=attritions,
            retained=len(decisions) - attritions - len(unsure),
            **decision_sources(decisions),
        )
        reason = await self._explain(ctx, score, judged, deterministic_reason) if ctx.include_reason else None
        return Outcome(score, reason, breakdown)

    async def _judge_turns(
        self, ctx: MeasureContext, turns: Sequence[Any]
    ) -> tuple[dict[str, dict[str, Any]], dict[str, Decision], dict[str, Any]]:
        """Extract the facts of every user turn, then decide every assistant turn that has earlier facts (ids
        ``t<turn index>``; yes = attrition) in the eval mode of ``ctx``. Returns ``(checks, decisions, breakdown)``;
        also used by ``judge-eval``."""
        assert ctx.extractor is not None
        user_idx = [i for i, t in enumerate(turns) if t.role == "user"]
        decided: dict[str, Decision] | None = None
        if ctx.mode is EvalMode.LLM and not ctx.sequential:
            changes, decided = await self._extract_and_judge(ctx, turns, user_idx)
        else:
            changes = await ctx.gather(*(self._extract(ctx, turns, i) for i in user_idx))
        changes_by_turn = dict(zip(user_idx, changes, strict=True))
        # deepeval's attribute: per turn, what the user turn states (None for assistant turns)
        ctx.attributes["knowledges"] = [
            _knowledge_of(changes_by_turn[i]) if i in changes_by_turn else None for i in range(len(turns))
        ]
        ctx.log(
            "Facts per user turn",
            {
                f"turn {i}": {"facts": c.added, **({"supersedes": c.superseded} if c.superseded else {})}
                for i, c in changes_by_turn.items()
            },
        )

        checks: dict[str, dict[str, Any]] = {}
        known: list[str] = []
        previous_user: str | None = None
        for j, turn in enumerate(turns):
            if turn.role == "user":
                known = apply_changes(known, changes_by_turn[j])
                previous_user = turn.content
                continue
            if known:
                checks[f"t{j}"] = {
                    "turn": j,
                    "facts": list(known),
                    "message": turn.content,
                    "user_message": previous_user,
                }
        breakdown: dict[str, Any] = {
            "user_turns": len(user_idx),
            "facts": sum(len(c.added) for c in changes),
            "superseded": sum(len(c.superseded) for c in changes),
            "assistant_turns": sum(t.role == "assistant" for t in turns),
            "checked_turns": len(checks),
        }
        if not checks:
            return checks, {}, breakdown

        if decided is not None:  # llm mode: every verdict was asked as soon as its facts were extracted
            ctx.llm_used = True
            return checks, {q: decided[q] for q in checks}, breakdown

        async def judge_turn(qid: str) -> tuple[str, Decision]:
            c = checks[qid]
            return qid, await self._turn_verdict(ctx, c["facts"], c["message"], c["user_message"])

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            return dict(await ctx.gather(*(judge_turn(q) for q in subset)))

        # every fact travels once, in the state; each turn's question names the ones known by then
        all_facts = list(dict.fromkeys(f for c in checks.values() for f in c["facts"]))
        position = {f: i for i, f in enumerate(all_facts)}
        conversation = [
            {"role": t.role, "content": t.content} for t in turns
        ]  # one list, shared by reference
        reads_turns = takes(self.question_set.turn_attrition, "conversation")

        def question(c: dict[str, Any]) -> Any:
            ids = [position[f] for f in c["facts"]]
            if reads_turns:
                return self.question_set.turn_attrition(
                    c["facts"],
                    c["message"],
                    c["user_message"],
                    ids,
                    conversation=conversation,
                    turn_index=c["turn"],
                )
            return self.question_set.turn_attrition(c["facts"], c["message"], c["user_message"], ids)

        decisions = await decide(
            ctx,
            state={"note": DECISION_NOTE, "facts": all_facts},
            questions={q: question(c) for q, c in checks.items()},
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )
        return checks, decisions, breakdown

    @staticmethod
    def _extract(ctx: MeasureContext, turns: Sequence[Any], i: int) -> Awaitable[FactChanges]:
        """The facts user turn ``i`` adds and supersedes, the turns before it as context."""
        assert ctx.extractor is not None
        return fact_changes(ctx.extractor, turns[i].content, TurnsBefore(turns, i))

    async def _turn_verdict(
        self, ctx: MeasureContext, facts: list[str], message: str, user_message: str | None
    ) -> Decision:
        """The LLM's verdict on one assistant turn (yes = attrition)."""
        assert ctx.llm is not None
        prompt = call_template(
            self.evaluation_template.generate_verdict,
            llm_message=message,
            accumulated_knowledge=facts,
            user_message=user_message,
            multimodal=False,
        )
        reply = await a_generate_structured(ctx.llm, prompt, KnowledgeRetentionVerdict)
        return Decision(reply.verdict, None, "llm", reply.reason)

    async def _extract_and_judge(
        self, ctx: MeasureContext, turns: Sequence[Any], user_idx: list[int]
    ) -> tuple[list[FactChanges], dict[str, Decision]]:
        """llm mode, concurrent: extract every user turn's facts and ask each assistant turn's verdict as soon as the
        user turns before it are extracted (the facts known after user turn ``k`` are folded once, in order, for
        all the turns that need them). Returns the extractions (in ``user_idx`` order) and the decisions by id
        ``t<turn>`` of every assistant turn with facts. Every call finishes before an error is raised (as
        :func:`~deepeval.metrics._engine.judges.gather_all`); a verdict whose facts failed is never asked."""
        extractions = [asyncio.ensure_future(self._extract(ctx, turns, i)) for i in user_idx]
        known: list[asyncio.Future[list[str]]] = []

        async def known_after(k: int) -> list[str]:
            before = await known[k - 1] if k else []
            return apply_changes(before, await extractions[k])

        for k in range(len(user_idx)):
            known.append(asyncio.ensure_future(known_after(k)))

        async def verdict(j: int, k: int, user_message: str | None) -> tuple[str, Decision] | None:
            facts = await known[k]
            if not facts:
                return None
            return f"t{j}", await self._turn_verdict(ctx, list(facts), turns[j].content, user_message)

        asks: list[Awaitable[tuple[str, Decision] | None]] = []
        k = -1
        previous_user: str | None = None
        for j, turn in enumerate(turns):
            if turn.role == "user":
                k += 1
                previous_user = turn.content
            elif k >= 0:
                asks.append(verdict(j, k, previous_user))
        results = await gather_all(*extractions, *known, *asks)
        n = len(user_idx)
        decided = dict(r for r in results[2 * n :] if r is not None)
        return list(results[:n]), decided


def _knowledge_of(changes: FactChanges) -> Knowledge:
    """deepeval's per-turn ``Knowledge``: the judge's reply itself, or (a deterministic or user extractor, whose
    facts are sentences) the facts numbered ``"fact 1"``, ``"fact 2"``, ..."""
    if changes.knowledge is not None:
        return changes.knowledge
    return Knowledge(
        data={f"fact {n}": fact for n, fact in enumerate(changes.added, start=1)},
        supersedes=list(changes.superseded),
    )


class _KnowledgeDataExtractor(LLMExtractor):
    """Fact extraction through a custom template's ``extract_data(user_message, previous_turns)`` (deepeval 4.3.1's
    prompt, the same ``Knowledge`` reply): each ``data`` entry becomes the fact ``"name: value"``."""

    def __init__(self, model: DeepEvalBaseLLM, extract_data: Callable[..., str]) -> None:
        super().__init__(model, facts_prompt=self._prompt)
        self._extract_data = extract_data

    def _prompt(self, user_message: str, previous: Sequence[tuple[str, str]]) -> str:
        return call_template(
            self._extract_data,
            user_message=user_message,
            previous_turns=[{"role": role, "content": content} for role, content in previous],
            multimodal=False,
        )


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """Reason built from the verdicts alone (hybrid mode without an LLM)."""
    n = len(judged)
    bad = [j for j in judged if j["attrition"]]
    unsure = [j for j in judged if j.get("verdict") == "unsure"]
    if not bad and not unsure:
        return f"The score is {score:.2f} because all {n} checked assistant turns keep the facts the user stated."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"turn {j['turn']} {j['assistant_message'][:120]!r}" + (
            f" (P(attrition)={p:.2f})" if p is not None else ""
        )

    kept = n - len(bad) - len(unsure)
    parts = [f"The score is {score:.2f}: {kept} of {n} checked assistant turns keep the user's facts."]
    if bad:
        parts.append(f"Forgot, contradicted or re-asked: {'; '.join(show(j) for j in bad)}.")
    if unsure:
        parts.append(
            f"Unsure (the judge could not tell; each counts by its P(attrition)): "
            f"{'; '.join(show(j) for j in unsure)}."
        )
    return " ".join(parts)
