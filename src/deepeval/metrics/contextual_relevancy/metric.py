"""ContextualRelevancyMetric: how much of the retrieval context is relevant to the input (REFERENCE §2-§4).

``score = relevant / statements`` over all nodes; no statements -> 0. Ours: with a System One model that weighs
statements (``share_weight``: the embedded judge), each statement counts by its weight instead of 1 or 0 (see
:func:`deepeval.metrics._engine.decisions.share_score`). ``retrieval_context=[]``, or nodes none of
which has a letter or digit, scores 0 with a reason and calls no judge, in every mode. ``RetrievedContextData`` nodes
are judged by their ``context`` text; the ``source`` is metadata (ours: deepeval crashes on them in llm/hybrid). Blank nodes (no letter or
digit) are never sent.

Judge calls per test case with ``n`` non-blank nodes (never more than deepeval 4.3.1):

* llm: ``n`` calls, one per node and all concurrently, each extracting the node's statements AND judging them
  (schema ``{"verdicts": [{"statement", "verdict", "reason"}]}``), then one reason call.
* hybrid: every node is split into sentences deterministically (the embedded judge's
  :class:`~deepeval.models.embedded.extraction.DeterministicExtractor`, ``pysbd``; no LLM call), one System One
  request decides every sentence of every node, then one reason call (none with ``include_reason=False``). So a
  test case costs 1 LLM call and 1 System One request, as deepeval 4.3.1's hybrid (which also splits with rules).
  Without an LLM the reason is built from the verdicts. Decisions System One fails on are made by the LLM, one
  call per node.
* system_one: one request with three whole-metric questions.

With a user ``extractor=`` (any mode) the extractor splits each node and the judges only decide.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import Decision, MeasureContext
from deepeval.metrics._engine.decisions import (
    decide,
    decision_sources,
    llm_verdicts,
    share_score,
    weighted_note,
)
from deepeval.metrics._engine.extractor import (
    LLMExtractor,
    sentence_statements,
    statements_batch_prompt,
)
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_fields
from deepeval.metrics._engine.schemas import non_blank_statements
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template, takes
from deepeval.metrics._engine.verdicts import binary_from_probability
from deepeval.metrics.contextual_relevancy.names import REQUIRED_PARAMS
from deepeval.metrics.contextual_relevancy.prompts import ContextualRelevancyTemplate
from deepeval.metrics.contextual_relevancy.questions import ContextualRelevancyQuestions
from deepeval.metrics.contextual_relevancy.schema import (
    ContextualRelevancyScoreReason,
    ContextualRelevancyVerdicts,
)
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.extraction import Extractor
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import LLMTestCase, RetrievedContextData

EMPTY_CONTEXT_REASON = (
    "The score is 0.00 because the retrieval context is empty: nothing was retrieved for the input."
)
NO_WORDS_REASON = (
    "The score is 0.00 because no node of the retrieval context has words (they are blank or only punctuation, "
    "symbols or emoji), so nothing in it is relevant to the input."
)
NO_STATEMENTS_REASON = "The score is 0.00 because the retrieval context holds no statements, so nothing in it is relevant to the input."


def retrieved_texts(test_case: LLMTestCase) -> list[str]:
    """The text of each retrieval-context node as judged: a ``RetrievedContextData``'s ``context`` only, since its
    ``source`` (a title or URL) is metadata, and a relevant-looking title must not make irrelevant text relevant."""
    return [
        node.context if isinstance(node, RetrievedContextData) else node
        for node in test_case.retrieval_context or []
    ]


class ContextualRelevancyMetric(EngineMetric):
    """Share of the retrieval context's statements that are relevant to the input. Score in [0, 1]; higher is
    better. Requires ``input``, ``actual_output`` and ``retrieval_context``. Constructor: see
    :class:`EngineMetric`."""

    default_template = ContextualRelevancyTemplate
    default_question_set = ContextualRelevancyQuestions
    reason_schema = ContextualRelevancyScoreReason

    @property
    def __name__(self) -> str:
        return "Contextual Relevancy"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        t = self.evaluation_template
        return LLMExtractor(
            llm,
            statements_prompt=t.generate_statements,
            statements_batch_prompt=getattr(t, "generate_node_statements", statements_batch_prompt),
        )

    def _system_one_request(self, test_case: LLMTestCase) -> tuple[Any, list[WeightedQuestion]]:
        nodes = retrieved_texts(test_case)
        # system_one mode: the state's fields are the data and no question quotes content, so no data note
        state = {"input": test_case.input, "retrieval_context": nodes}
        return state, list(self.question_set.whole_metric(test_case.input, nodes))

    def _degenerate(self, test_case: LLMTestCase) -> Outcome | None:
        nodes = retrieved_texts(test_case)
        if not nodes:
            return Outcome(0.0, EMPTY_CONTEXT_REASON, {"nodes": 0, "statements": 0, "relevant": 0})
        if not any(has_words(node) for node in nodes):
            return Outcome(0.0, NO_WORDS_REASON, {"nodes": len(nodes), "statements": 0, "relevant": 0})
        return None

    async def _evaluate(self, test_case: LLMTestCase, ctx: MeasureContext) -> Outcome:
        question = test_case.input
        nodes = retrieved_texts(test_case)
        template = self.evaluation_template
        judge_nodes = getattr(template, "generate_node_verdicts", None)
        if _deepeval_node_prompt(template) is not None:  # a template written for deepeval 4.3.1
            judge_nodes = _deepeval_node_prompt(template)
        if ctx.mode is EvalMode.LLM and ctx.own_extraction and judge_nodes is not None:
            per_node, decisions = await self._split_and_judge(ctx, question, nodes)
            ctx.log("Statements per node", per_node)
        else:
            if ctx.mode is EvalMode.HYBRID and ctx.own_extraction:
                per_node = _sentences_per_node(nodes)
            else:
                per_node = await _statements_per_node(ctx, nodes)
            ctx.log("Statements per node", per_node)
            decisions = await self._decide(ctx, question, per_node, nodes)
        if not decisions:
            return Outcome(0.0, NO_STATEMENTS_REASON, {"nodes": len(nodes), "statements": 0, "relevant": 0})
        node_of = {i: n for n, sts in enumerate(per_node) for i in _ids(n, sts)}
        statement_of = {
            i: st for n, sts in enumerate(per_node) for i, st in zip(_ids(n, sts), sts, strict=True)
        }
        score, weights = share_score(ctx, decisions, lambda d: d.verdict == "yes")
        judged = [
            {
                "node": node_of[i],
                "statement": statement_of[i],
                **d.as_log(),
                **({"weight": round(weights[i], 4)} if i in weights else {}),
            }
            for i, d in decisions.items()
        ]
        ctx.log_verdicts("Verdicts", judged)
        relevant = sum(d.verdict == "yes" for d in decisions.values())
        breakdown: dict[str, Any] = {
            "nodes": len(nodes),
            "statements": len(decisions),
            "relevant": relevant,
            "irrelevant": len(decisions) - relevant,
            "weighted_by_probability": bool(weights),
            "relevant_per_node": [
                sum(1 for j in judged if j["node"] == n and j["verdict"] == "yes") for n in range(len(nodes))
            ],
            "statements_per_node": [len(sts) for sts in per_node],
            **decision_sources(decisions),
        }
        reason = (
            await self._explain(ctx, score, judged, deterministic_reason, question)
            if ctx.include_reason
            else None
        )
        return Outcome(score, reason, breakdown)

    async def _split_and_judge(
        self, ctx: MeasureContext, question: str, nodes: Sequence[str]
    ) -> tuple[list[list[str]], dict[str, Decision]]:
        """``llm`` mode: one call per non-blank node (concurrently) returning its statements with their verdicts."""
        llm = ctx.llm
        assert llm is not None

        template = self.evaluation_template
        per_node = _deepeval_node_prompt(template)

        def node_prompt(node: str) -> str:
            if per_node is not None:
                return call_template(per_node, input=question, context=node, multimodal=False)
            return str(template.generate_node_verdicts(question, node))

        async def one(node: str) -> list[tuple[str, Decision]]:
            if not has_words(node):
                return []
            reply = await a_generate_structured(
                llm,
                node_prompt(node),
                ContextualRelevancyVerdicts,
                check=non_blank_statements,
            )
            return [(v.statement, Decision(v.verdict, None, "llm", v.reason)) for v in reply.verdicts]

        results: list[list[tuple[str, Decision]]] = await ctx.gather(*(one(node) for node in nodes))
        ctx.llm_used = True
        statements = [[st for st, _ in pairs] for pairs in results]
        decisions = {
            i: d for n, pairs in enumerate(results) for i, (_, d) in zip(_ids(n, pairs), pairs, strict=True)
        }
        return statements, decisions

    async def _decide(
        self, ctx: MeasureContext, question: str, per_node: Sequence[Sequence[str]], nodes: Sequence[str]
    ) -> dict[str, Decision]:
        """Statements already split: System One decides all of them in one request (hybrid), the LLM one call per
        node (``llm`` mode with a user extractor, and the hybrid fallback)."""
        by_id: dict[str, tuple[int, str]] = {
            i: (n, st) for n, sts in enumerate(per_node) for i, st in zip(_ids(n, sts), sts, strict=True)
        }
        if not by_id:
            return {}

        async def judge_node(ids: list[str]) -> dict[str, Decision]:
            assert ctx.llm is not None
            statements = [by_id[i][1] for i in ids]
            prompt = self.evaluation_template.generate_verdicts(question, statements)
            return await llm_verdicts(ctx.llm, prompt, ContextualRelevancyVerdicts, ids)

        async def llm_decide(subset: Sequence[str]) -> Mapping[str, Decision]:
            groups: dict[int, list[str]] = {}
            for i in subset:
                groups.setdefault(by_id[i][0], []).append(i)
            merged: dict[str, Decision] = {}
            for part in await ctx.gather(*(judge_node(ids) for ids in groups.values())):
                merged.update(part)
            return merged

        context = "\n".join(nodes)  # local judges rank a statement among all retrieved sentences
        return await decide(
            ctx,
            state={"note": STATE_NOTE, "input": question},
            questions={
                i: self.question_set.statement_relevant(question, st, context=context, node=nodes[n])
                for i, (n, st) in by_id.items()
            },
            to_verdict=binary_from_probability,
            llm_decide=llm_decide,
        )


def deterministic_reason(score: float, judged: Sequence[Mapping[str, Any]]) -> str:
    """Reason built from the verdicts alone (hybrid mode without an LLM)."""
    n = len(judged)
    bad = [j for j in judged if j["verdict"] not in ("yes", "unsure")]
    undecided = [j for j in judged if j["verdict"] == "unsure"]
    note = weighted_note(judged)
    if not bad and not undecided:
        return f"The score is {score:.2f} because all {n} statements of the retrieval context are relevant to the input{note}."

    def show(j: Mapping[str, Any]) -> str:
        p = j.get("p_yes")
        return f"node {j['node']}: {j['statement']!r}" + (f" (P(relevant)={p:.2f})" if p is not None else "")

    kept = n - len(bad) - len(undecided)
    parts = [
        f"The score is {score:.2f}: {kept} of {n} statements of the retrieval context are relevant{note}."
    ]
    if bad:
        parts.append(f"Not relevant to the input: {'; '.join(show(j) for j in bad)}.")
    if undecided:
        parts.append(
            f"Unsure (the judge could not tell; counted by probability): {'; '.join(show(j) for j in undecided)}."
        )
    return " ".join(parts)


def _deepeval_node_prompt(template: Any) -> Any:
    """deepeval 4.3.1's per-node prompt, ``generate_verdicts(input, context)`` (it splits one node into statements
    and judges them, as our ``generate_node_verdicts``), when the template has that shape; else None (ours is
    ``generate_verdicts(input, statements)``)."""
    method = getattr(template, "generate_verdicts", None)
    return method if method is not None and takes(method, "context") else None


def _ids(node: int, items: Sequence[Any]) -> list[str]:
    """Decision ids of a node's statements: ``n<node>s<i>``."""
    return [f"n{node}s{i}" for i in range(len(items))]


def _sentences_per_node(nodes: Sequence[str]) -> list[list[str]]:
    """Hybrid split with no judge call: each node's sentences
    (:func:`~deepeval.metrics._engine.extractor.sentence_statements`), ``[]`` for a blank node. The embedded judge's
    ``context_statement_relevant`` model was fitted on single passage sentences (ClapNQ), so a System One judge sees
    the unit it was calibrated on."""
    return [sentence_statements(node) for node in nodes]


async def _statements_per_node(ctx: MeasureContext, nodes: Sequence[str]) -> list[list[str]]:
    """Every node's statements: in one call when the extractor offers ``statements_per_text(texts)`` (sync or
    async; the LLM extractor does), else one ``statements(node)`` call per node, concurrently."""
    assert ctx.extractor is not None
    extractor = ctx.extractor
    batch: Any = getattr(extractor, "statements_per_text", None)
    if batch is not None:
        result = batch(list(nodes))
        if inspect.isawaitable(result):
            result = await result
        per_node = [list(sts) for sts in result]
        if len(per_node) != len(nodes):  # a user extractor's bug, never a judge's fault
            raise RuntimeError(f"statements_per_text returned {len(per_node)} lists for {len(nodes)} nodes")
        return per_node
    out: list[list[str]] = await ctx.gather(*(extractor.statements(node) for node in nodes))
    return out
