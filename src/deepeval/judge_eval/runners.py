"""Judging the labelled units of a set with the configured judge, at the granularity of the labels.

:func:`a_run` builds the :class:`Judging` of a task (the metric instance built from its declaration, with its judges
resolved as the metric resolves them; the memory judge; or the System One judge alone) and runs the task's runner
on every item: the metrics' runners are in their folders (``deepeval/metrics/<name>/judge_eval.py``,
``deepeval/memory/judge_eval.py``), judge-eval's own ``fact_stated`` in :mod:`deepeval.judge_eval.fact_stated`; the
units they fill are :mod:`deepeval.judge_eval.units`. A runner that raises (or returns something else) costs only
its item: one error unit stands for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from deepeval.judge_eval.schema import Item
from deepeval.judge_eval.tasks import Task, get_task
from deepeval.judge_eval.units import ItemScore, Run, Unit, error_text

__all__ = ["ItemScore", "Judging", "Run", "Unit", "a_run"]


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
        """A fresh measure context of the metric's judges (its public ``measure_context()``)."""
        return self.instance.measure_context()

    async def item_score(self, test_case: Any) -> tuple[float | None, str | None, float]:
        metric = self.instance.fresh_copy()
        t0 = time.perf_counter()
        try:
            score = await metric.a_measure(test_case)
        except Exception as err:
            return None, error_text(err), time.perf_counter() - t0
        return float(score), None, time.perf_counter() - t0


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
