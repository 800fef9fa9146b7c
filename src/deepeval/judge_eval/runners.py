"""Judging the labelled units of a set with the configured judge, at the granularity of the labels.

* answer / contextual relevancy: one decision per labelled statement, asked exactly as the metric asks it in its
  eval mode (the metric's ``_judge_statements`` / ``_decide``: System One with the metric's per-statement question,
  or the LLM with the metric's verdict prompt); plus the metric's own item score (``a_measure`` on the test case,
  with its own extraction) against the gold share.
* knowledge retention: the metric's fact extraction and per-turn decision for every labelled assistant turn; a
  labelled turn the metric does not check (no fact known before it) counts as "keeps" with P(forgets) = 0; plus the
  metric's score against the gold share of kept turns.
* memory grade / claim support: the memory judge (:func:`deepeval.memory.judges.resolve_memory_judge`: the LLM
  when one is configured or given, else the embedded grader) grades each item / verifies each claim.

An item whose judge call fails keeps its rows: each unit carries the error and no probability.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deepeval.config.settings import redact
from deepeval.judge_eval import baselines
from deepeval.judge_eval.schema import LABELS, Item

#: P(yes) given to an LLM verdict (the LLM gives no probability)
_LLM_P = {"yes": 1.0, "no": 0.0, "borderline": 0.5}


@dataclass
class Unit:
    """One judged label. ``p`` is the judge's P(positive label) (None when its call failed); ``verdict`` the
    judge's word (a label, or ``borderline``); ``baseline_p`` / ``baseline_positive`` the trivial baseline's."""

    item_id: str
    where: str
    text: str
    gold: str
    positive: bool
    tags: list[str]
    p: float | None = None
    verdict: str | None = None
    baseline_p: float = 0.0
    baseline_positive: bool = False
    seconds: float = 0.0
    error: str | None = None
    note: str | None = None
    gold_grade: int | None = None
    grade: int | None = None
    baseline_grade: int | None = None
    #: which stage of a cascading judge decided (``encoder``, ``reader``, ``unsure``); None for other judges
    tier: str | None = None
    #: each stage's own P when the cascade passed the unit on (``{"encoder": p, "reader": q}``)
    stages: dict[str, float] | None = None

    @property
    def judged_positive(self) -> bool | None:
        return None if self.p is None else self.p >= 0.5

    @property
    def confidence(self) -> float | None:
        return None if self.p is None else abs(2.0 * self.p - 1.0)


@dataclass
class ItemScore:
    """The metric's score of a whole item against the gold share of positive units (``gold``)."""

    item_id: str
    gold: float
    score: float | None = None
    baseline: float | None = None
    seconds: float = 0.0
    error: str | None = None


@dataclass
class Run:
    """Everything one judge-eval run produced."""

    metric: str
    judge: str
    units: list[Unit] = field(default_factory=list)
    items: list[ItemScore] = field(default_factory=list)
    seconds: float = 0.0


def _error(err: BaseException) -> str:
    return redact(f"{type(err).__name__}: {err}")


def _p_of(decision: Any) -> float:
    return float(decision.probability) if decision.probability is not None else _LLM_P[decision.verdict]


def _verdict_word(metric: str, p: float, verdict: str) -> str:
    pos, neg = LABELS[metric][0], LABELS[metric][1]
    if verdict in ("borderline", "unsure"):
        return verdict
    return pos if p >= 0.5 else neg


def _take(unit: Unit, metric: str, decision: Any) -> None:
    """Fill ``unit`` from the metric's decision: P, verdict word, and the cascade's tier and stage P's."""
    unit.p = _p_of(decision)
    unit.verdict = _verdict_word(metric, unit.p, decision.verdict)
    unit.tier = getattr(decision, "tier", None)
    unit.stages = getattr(decision, "stages", None)


class _Judging:
    """The metric instance and its resolved judges for one run."""

    def __init__(self, metric: str, *, eval_mode: str | None, model: Any, system_one_model: Any) -> None:
        self.metric = metric
        self.instance: Any = None
        self.memory_judge: Any = None
        self.system_one: Any = None
        if metric in ("memory_grade", "claim_support"):
            from deepeval.memory.judges import resolve_memory_judge

            self.memory_judge = resolve_memory_judge(model)
            self.name = self.memory_judge.get_model_name()
            return
        if metric == "fact_stated":
            from deepeval.models.base_model import judge_name
            from deepeval.models.resolve import resolve_system_one

            self.system_one = resolve_system_one(system_one_model)
            self.name = judge_name(self.system_one)
            return
        from deepeval.metrics import (
            AnswerRelevancyMetric,
            ContextualRelevancyMetric,
            KnowledgeRetentionMetric,
        )

        cls = {
            "answer_relevancy": AnswerRelevancyMetric,
            "contextual_relevancy": ContextualRelevancyMetric,
            "knowledge_retention": KnowledgeRetentionMetric,
        }[metric]
        self.instance = cls(
            threshold=None,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=False,
        )
        judges = self.instance.judges()
        names = [n for n in (judges.names().get("llm"), judges.names().get("system_one")) if n]
        self.name = f"{' + '.join(names) or 'judge'} (eval mode {judges.mode.value})"

    def context(self) -> Any:
        return self.instance._context(self.instance.judges(), sequential=False)

    async def item_score(self, test_case: Any) -> tuple[float | None, str | None, float]:
        metric = self.instance.fresh_copy()
        t0 = time.perf_counter()
        try:
            score = await metric.a_measure(test_case)
        except Exception as err:
            return None, _error(err), time.perf_counter() - t0
        return float(score), None, time.perf_counter() - t0


def _timed_units(units: list[Unit], seconds: float) -> None:
    for u in units:
        u.seconds = seconds / max(1, len(units))


async def _decide_units(
    j: _Judging, units: list[Unit], decide: Callable[[], Awaitable[Mapping[str, Any]]]
) -> None:
    """Await the metric's own per-statement decisions and fill each unit's P and verdict (keyed by ``unit.where``);
    a failed call is every unit's error, never a lost unit. The call's wall time is shared out over the units."""
    t0 = time.perf_counter()
    try:
        decisions = await decide()
        for u in units:
            _take(u, j.metric, decisions[u.where])
    except Exception as err:
        for u in units:
            u.error = _error(err)
    _timed_units(units, time.perf_counter() - t0)


def _relevancy_unit(item: Item, unit_id: str, st: dict[str, Any], question: str) -> Unit:
    """One labelled answer or context statement, with the word-overlap baseline's P and verdict."""
    unit = Unit(
        item.id,
        unit_id,
        st["text"],
        st["label"],
        st["label"] == "relevant",
        list(st.get("tags", [])),
        baseline_p=baselines.relevancy_overlap(question, st["text"]),
    )
    unit.baseline_positive = baselines.relevant_by_overlap(unit.baseline_p)
    return unit


async def _answer_relevancy(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    from deepeval.test_case import LLMTestCase

    d = item.data
    q = d["input"]
    units = [_relevancy_unit(item, f"s{i}", st, q) for i, st in enumerate(d["statements"])]
    await _decide_units(
        j, units, lambda: j.instance._judge_statements(j.context(), q, [u.text for u in units])
    )
    score = await _item(j, item, LLMTestCase(input=q, actual_output=d["actual_output"]), units)
    return units, score


async def _contextual_relevancy(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    from deepeval.test_case import LLMTestCase

    d = item.data
    q, nodes = d["input"], list(d["retrieval_context"])
    per_node: list[list[str]] = [[] for _ in nodes]
    units: list[Unit] = []
    for st in d["statements"]:
        n = st["node"]
        units.append(_relevancy_unit(item, f"n{n}s{len(per_node[n])}", st, q))
        per_node[n].append(st["text"])
    await _decide_units(j, units, lambda: j.instance._decide(j.context(), q, per_node, nodes))
    case = LLMTestCase(
        input=q, actual_output=d.get("actual_output") or "(not given)", retrieval_context=nodes
    )
    return units, await _item(j, item, case, units)


async def _knowledge_retention(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    from deepeval.test_case import ConversationalTestCase, Turn

    d = item.data
    turns = [Turn(role=t["role"], content=t["content"]) for t in d["turns"]]
    units = [
        Unit(
            item.id,
            f"turn {lab['turn']}",
            turns[lab["turn"]].content,
            lab["label"],
            lab["label"] == "forgets",
            list(lab.get("tags", [])),
        )
        for lab in d["labels"]
    ]
    t0 = time.perf_counter()
    try:
        _, decisions, _ = await j.instance._judge_turns(j.context(), turns)
        for u, lab in zip(units, d["labels"], strict=True):
            dec = decisions.get(f"t{lab['turn']}")
            if dec is None:
                u.p, u.verdict, u.note = 0.0, "keeps", "not checked: no fact known before this turn"
            else:
                _take(u, j.metric, dec)
    except Exception as err:
        for u in units:
            u.error = _error(err)
    _timed_units(units, time.perf_counter() - t0)
    return units, await _item(j, item, ConversationalTestCase(turns=turns), units, baseline=1.0)


async def _item(
    j: _Judging, item: Item, case: Any, units: Sequence[Unit], baseline: float | None = None
) -> ItemScore:
    gold = sum(u.gold == LABELS[j.metric][0] for u in units) / len(units) if units else 0.0
    if j.metric == "knowledge_retention":
        gold = 1.0 - gold if units else 1.0  # the metric scores the share of turns that keep
    if baseline is None:
        baseline = sum(u.baseline_positive for u in units) / len(units)
    score, error, seconds = await j.item_score(case)
    return ItemScore(item.id, gold, score, baseline, seconds, error)


async def _memory_grade(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    d = item.data
    gold = int(d["grade"])
    unit = Unit(item.id, "item", d["answer"], str(gold), gold >= 3, list(item.tags), gold_grade=gold)
    unit.baseline_grade = baselines.grade_by_overlap(d["expected"], d["answer"])
    unit.baseline_p = (unit.baseline_grade - 1) / 4
    unit.baseline_positive = unit.baseline_grade >= 3
    t0 = time.perf_counter()
    try:
        graded = await j.memory_judge.grade(d["question"], d["expected"], d["answer"], [])
        unit.grade = int(graded.score)
        unit.p = (unit.grade - 1) / 4
        unit.verdict = str(unit.grade)
    except Exception as err:
        unit.error = _error(err)
    unit.seconds = time.perf_counter() - t0
    return [unit], None


async def _claim_support(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    from deepeval.memory.artifact import MemoryArtifact

    d = item.data
    transcript = MemoryArtifact.from_turns(d["transcript"])
    text = "\n".join(t["content"] for t in d["transcript"])
    units: list[Unit] = []
    for i, claim in enumerate(d["claims"]):
        u = Unit(
            item.id,
            f"claim {i}",
            claim["text"],
            claim["label"],
            claim["label"] == "supported",
            list(claim.get("tags", [])),
            baseline_p=baselines.claim_overlap(claim["text"], text),
        )
        u.baseline_positive = u.baseline_p >= 0.5
        t0 = time.perf_counter()
        try:
            graded, _ = await j.memory_judge.verify(claim["text"], transcript)
            u.grade = int(graded.score)
            u.p = (u.grade - 1) / 4
            u.verdict = "supported" if u.p >= 0.5 else "not supported"
            u.tier = getattr(graded, "tier", None)
            u.stages = getattr(graded, "stages", None)
        except Exception as err:
            u.error = _error(err)
        u.seconds = time.perf_counter() - t0
        units.append(u)
    return units, None


async def _fact_stated(j: _Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
    """One ``fact_stated`` question to the System One judge: does the text state the fact? (contradicted and not
    stated are both "no")."""
    from deepeval.models.system_one.call import a_decide_checked
    from deepeval.models.system_one.kinds import FACT_STATED
    from deepeval.models.system_one.schema import NoulQuestion

    d = item.data
    u = Unit(
        item.id,
        "fact",
        d["fact"],
        d["label"],
        d["label"] == "stated",
        list(item.tags),
        baseline_p=baselines.claim_overlap(d["fact"], d["text"]),
    )
    u.baseline_positive = u.baseline_p >= 0.5
    question = NoulQuestion(
        instructions=f"Does the text in `text` state this fact: {d['fact']}",
        kind=FACT_STATED,
        data={"text": d["text"], "fact": d["fact"]},
    )
    t0 = time.perf_counter()
    try:
        answers, _ = await a_decide_checked(j.system_one, {"text": d["text"]}, {"q": question})
        noul = answers.nouls.get("q")
        if noul is None:
            raise RuntimeError("the judge gave no answer")
        u.p = noul.probability
        u.tier = answers.tiers.get("q")
        u.stages = answers.stages.get("q")
        u.verdict = "unsure" if u.tier == "unsure" else ("stated" if u.p >= 0.5 else "not stated")
    except Exception as err:
        u.error = _error(err)
    u.seconds = time.perf_counter() - t0
    return [u], None


_RUNNERS: dict[str, Callable[[_Judging, Item], Awaitable[tuple[list[Unit], ItemScore | None]]]] = {
    "answer_relevancy": _answer_relevancy,
    "contextual_relevancy": _contextual_relevancy,
    "knowledge_retention": _knowledge_retention,
    "memory_grade": _memory_grade,
    "claim_support": _claim_support,
    "fact_stated": _fact_stated,
}


async def a_run(
    metric: str,
    items: Sequence[Item],
    *,
    eval_mode: str | None = None,
    model: Any = None,
    system_one_model: Any = None,
    max_concurrent: int = 4,
    on_item: Callable[[int], None] | None = None,
) -> Run:
    """Judge every labelled unit of ``items`` (see module docstring); items run ``max_concurrent`` at a time and
    the result keeps their order.

    Raises:
        ConfigurationError / InvalidEvalModeError: the judge cannot be resolved (e.g. ``llm`` mode with no LLM).
    """
    judging = _Judging(metric, eval_mode=eval_mode, model=model, system_one_model=system_one_model)
    run = Run(metric, judging.name)
    gate = asyncio.Semaphore(max(1, max_concurrent))
    done = 0

    async def one(item: Item) -> tuple[list[Unit], ItemScore | None]:
        nonlocal done
        async with gate:
            out = await _RUNNERS[metric](judging, item)
        done += 1
        if on_item is not None:
            on_item(done)
        return out

    t0 = time.perf_counter()
    results = await asyncio.gather(*(one(item) for item in items))
    run.seconds = time.perf_counter() - t0
    for units, score in results:
        run.units.extend(units)
        if score is not None:
            run.items.append(score)
    return run
