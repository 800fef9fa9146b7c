"""The kinds of labelled item ``deepeval judge-eval --metric NAME`` reads: every metric's declared tasks (the
metric registry) and the judge-level tasks no single metric owns (``fact_stated``: the System One question memory
probes and claim support ask)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deepeval.judge_eval.schema import Item, read_items
from deepeval.metrics import registry
from deepeval.metrics.declaration import JudgeEvalTask, MetricDeclaration, resolve_part

#: judge-level tasks (not a metric's); their names are reserved in :data:`deepeval.metrics.registry.JUDGE_EVAL_OWN_TASKS`
JUDGE_TASKS = (
    JudgeEvalTask(
        name="fact_stated",
        labels=("stated", "not_stated", "contradicted"),
        check="deepeval.judge_eval.schema:check_fact",
        runner="deepeval.judge_eval.fact_stated:fact_stated_item",
        baseline="word overlap",
        judge="system_one",
    ),
)


@dataclass(frozen=True)
class Task:
    """A judge-eval task and the metric that declares it (None for a judge-level task)."""

    declared: JudgeEvalTask
    metric: MetricDeclaration | None

    @property
    def name(self) -> str:
        return self.declared.name

    @property
    def positive(self) -> str:
        return self.declared.labels[0]

    def check_function(self) -> Callable[..., None]:
        """The item check (MetricLoadError when it cannot be imported)."""
        check: Callable[..., None] = resolve_part(
            self.declared.check, f"judge-eval task {self.name!r}: check"
        )
        return check

    def runner(self) -> Callable[[Any, Any], Awaitable[Any]]:
        """The runner (MetricLoadError when it cannot be imported)."""
        run: Callable[[Any, Any], Awaitable[Any]] = resolve_part(
            self.declared.runner, f"judge-eval task {self.name!r}: runner"
        )
        return run


def tasks() -> dict[str, Task]:
    """Every task by name: the metrics' (registry order), then the judge-level ones."""
    # the registry refuses a metric task named like one of JUDGE_TASKS (registry.JUDGE_EVAL_OWN_TASKS)
    out = {name: Task(task, owner) for name, (task, owner) in registry.judge_eval_tasks().items()}
    out.update({t.name: Task(t, None) for t in JUDGE_TASKS})
    return out


def names() -> tuple[str, ...]:
    return tuple(tasks())


def get_task(name: str) -> Task:
    """The task called ``name``.

    Raises:
        ValueError: there is none (the message lists the names).
    """
    found = tasks().get(name)
    if found is None:
        raise ValueError(f"unknown metric {name!r}; one of {', '.join(names())}")
    return found


def load_items(path: str | Path, metric: str, limit: int | None = None) -> list[Item]:
    """The items of a labelled set for the judge-eval task ``metric`` (at most ``limit``; blank lines skipped;
    the task's ``check`` validates each item).

    Raises:
        JudgeSetError: the file cannot be read, is empty, or a line is not a valid item of ``metric`` (bad JSON, a
            missing or mistyped field, another ``kind``, a duplicate ``id``).
        ValueError: ``metric`` is not a judge-eval task (:func:`names`).
        MetricLoadError: the task's check cannot be imported.
    """
    task = get_task(metric)
    return read_items(path, metric, task.check_function(), task.declared, limit)
