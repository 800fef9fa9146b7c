"""What a judge-eval run is made of: the judged :class:`Unit` (one label), the metric's :class:`ItemScore` of an
item, the :class:`Run`; and the helpers a task's runner uses to fill them (:func:`decide_units`, :func:`timed`,
:func:`take`, :func:`relevancy_unit`, :func:`item_score`, :func:`error_text`). The runners of the metrics' tasks
(``deepeval/metrics/<name>/judge_eval.py``) import this module, which imports no metric and no registry.

An item whose judge call fails keeps its rows: each unit carries the error and no probability.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from deepeval.config.settings import redact
from deepeval.judge_eval import baselines
from deepeval.judge_eval.schema import Item

if TYPE_CHECKING:
    from deepeval.judge_eval.runners import Judging

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


def _verdict_word(labels: Sequence[str], p: float, verdict: str) -> str:
    if verdict in ("borderline", "unsure"):
        return verdict
    return labels[0] if p >= 0.5 else labels[1]


def take(unit: Unit, labels: Sequence[str], decision: Any) -> None:
    """Fill ``unit`` from the metric's decision: P, verdict word (``labels``: the task's, positive first), and
    the cascade's tier and stage P's."""
    unit.p = _p_of(decision)
    unit.verdict = _verdict_word(labels, unit.p, decision.verdict)
    unit.tier = getattr(decision, "tier", None)
    unit.stages = getattr(decision, "stages", None)


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
            take(u, j.task.declared.labels, decisions[u.where])
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
