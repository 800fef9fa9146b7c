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
from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.tasks import Task, get_task

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


def error_text(err: BaseException) -> str:
    """A unit's error: ``"Type: message"``, redacted."""
    return redact(f"{type(err).__name__}: {err}")


def _p_of(decision: Any) -> float:
    return float(decision.probability) if decision.probability is not None else _LLM_P[decision.verdict]


def _verdict_word(task: Task, p: float, verdict: str) -> str:
    if verdict in ("borderline", "unsure"):
        return verdict
    return task.declared.labels[0] if p >= 0.5 else task.declared.labels[1]


def take(unit: Unit, task: Task, decision: Any) -> None:
    """Fill ``unit`` from the metric's decision: P, verdict word, and the cascade's tier and stage P's."""
    unit.p = _p_of(decision)
    unit.verdict = _verdict_word(task, unit.p, decision.verdict)
    unit.tier = getattr(decision, "tier", None)
    unit.stages = getattr(decision, "stages", None)


class Judging:
    """What a task's runner judges with, for one run: the task, and the metric instance built from its declaration
    (judges resolved as the metric resolves them), the memory judge, or the System One judge alone (the task's
    ``judge``)."""

    def __init__(self, task: Task, *, eval_mode: str | None, model: Any, system_one_model: Any) -> None:
        self.task = task
        self.instance: Any = None
        self.memory_judge: Any = None
        self.system_one: Any = None
        kind = task.declared.judge
        if kind == "memory":
            from deepeval.memory.judges import resolve_memory_judge

            self.memory_judge = resolve_memory_judge(model)
            self.name = self.memory_judge.get_model_name()
            return
        if kind == "system_one":
            from deepeval.models.base_model import judge_name
            from deepeval.models.resolve import resolve_system_one

            self.system_one = resolve_system_one(system_one_model)
            self.name = judge_name(self.system_one)
            return
        if task.metric is None:
            raise ValueError(
                f"judge-eval task {task.name!r} needs a metric to judge with, and none declares it"
            )
        from deepeval.errors import ConfigurationError, DeepEvalError
        from deepeval.metrics import registry

        options: dict[str, Any] = {"threshold": None, "model": model, "include_reason": False}
        if task.metric.takes_eval_mode:
            options.update(system_one_model=system_one_model, eval_mode=eval_mode)
        try:
            self.instance = registry.create(task.metric, **options)  # the keywords its constructor takes
        except DeepEvalError:
            raise
        except Exception as err:  # a metric's constructor that failed: bad input, named, not a crash
            raise ConfigurationError(
                f"cannot construct metric {task.metric.name!r}: {type(err).__name__}: {err}"
            ) from err
        self.name = self._judge_names()

    def _judge_names(self) -> str:
        judges = getattr(self.instance, "judges", None)
        if judges is None:  # a metric without our engine: its evaluation model, when it names one
            return str(getattr(self.instance, "evaluation_model", None) or type(self.instance).__name__)
        resolved = judges()
        names = [n for n in (resolved.names().get("llm"), resolved.names().get("system_one")) if n]
        return f"{' + '.join(names) or 'judge'} (eval mode {resolved.mode.value})"

    def context(self) -> Any:
        return self.instance._context(self.instance.judges(), sequential=False)

    async def item_score(self, test_case: Any) -> tuple[float | None, str | None, float]:
        metric = self.instance.fresh_copy()
        t0 = time.perf_counter()
        try:
            score = await metric.a_measure(test_case)
        except Exception as err:
            return None, error_text(err), time.perf_counter() - t0
        return float(score), None, time.perf_counter() - t0


def _timed_units(units: list[Unit], seconds: float) -> None:
    for u in units:
        u.seconds = seconds / max(1, len(units))


async def decide_units(
    j: Judging, units: list[Unit], decide: Callable[[], Awaitable[Mapping[str, Any]]]
) -> None:
    """Await the metric's own per-statement decisions and fill each unit's P and verdict (keyed by ``unit.where``);
    a failed call is every unit's error, never a lost unit. The call's wall time is shared out over the units."""
    t0 = time.perf_counter()
    try:
        decisions = await decide()
        for u in units:
            take(u, j.task, decisions[u.where])
    except Exception as err:
        for u in units:
            u.error = error_text(err)
    _timed_units(units, time.perf_counter() - t0)


async def timed(units: list[Unit], judge: Callable[[], Awaitable[None]]) -> None:
    """Await ``judge()`` (which fills the units); a failure is every unit's error. The wall time is shared out."""
    t0 = time.perf_counter()
    try:
        await judge()
    except Exception as err:
        for u in units:
            u.error = error_text(err)
    _timed_units(units, time.perf_counter() - t0)


def relevancy_unit(item: Item, unit_id: str, st: dict[str, Any], question: str) -> Unit:
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


async def item_score(
    j: Judging,
    item: Item,
    case: Any,
    units: Sequence[Unit],
    *,
    baseline: float | None = None,
    keeps: bool = False,
) -> ItemScore:
    """The metric's own score of ``case`` (``a_measure``) against the gold share of positive units (``keeps``:
    the metric scores the share of negative units, as knowledge retention scores turns that keep);
    ``baseline``: the baseline's item score (default: its share of positive units)."""
    gold = sum(u.gold == j.task.positive for u in units) / len(units) if units else 0.0
    if keeps:
        gold = 1.0 - gold if units else 1.0
    if baseline is None:
        baseline = sum(u.baseline_positive for u in units) / len(units)
    score, error, seconds = await j.item_score(case)
    return ItemScore(item.id, gold, score, baseline, seconds, error)


async def fact_stated_item(j: Judging, item: Item) -> tuple[list[Unit], ItemScore | None]:
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
        u.error = error_text(err)
    u.seconds = time.perf_counter() - t0
    return [u], None


def _is_result(out: object) -> bool:
    return (
        isinstance(out, tuple)
        and len(out) == 2
        and isinstance(out[0], list)
        and all(isinstance(u, Unit) for u in out[0])
        and (out[1] is None or isinstance(out[1], ItemScore))
    )


def _failed_item(judging: Judging, item: Item, what: str) -> tuple[list[Unit], ItemScore | None]:
    unit = Unit(item.id, "item", "", "(not judged)", False, list(item.tags))
    unit.error = f"the {judging.task.name!r} runner failed on this item: {what}"
    return [unit], None


async def _run_item(
    runner: Callable[[Judging, Item], Awaitable[Any]], judging: Judging, item: Item
) -> tuple[list[Unit], ItemScore | None]:
    """The runner's units and item score for ``item``; when the runner raises (or returns something else), one
    unit that carries the error stands for the item, so no item is lost from the report."""
    try:
        out = await runner(judging, item)
    except Exception as err:
        return _failed_item(judging, item, error_text(err))
    if not _is_result(out):
        return _failed_item(
            judging, item, f"it returned {type(out).__name__}, not (a list of Unit, an ItemScore or None)"
        )
    units, score = out
    return units, score


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
        ValueError: ``metric`` is not a judge-eval task.
    """
    task = get_task(metric)
    judging = Judging(task, eval_mode=eval_mode, model=model, system_one_model=system_one_model)
    runner = task.runner()
    run = Run(metric, judging.name)
    gate = asyncio.Semaphore(max(1, max_concurrent))
    done = 0

    async def one(item: Item) -> tuple[list[Unit], ItemScore | None]:
        nonlocal done
        async with gate:
            out = await _run_item(runner, judging, item)
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
