"""Progress bars of the ``deepeval memory`` commands: one rich bar per stage of a run, on stderr.

Shown only when stderr is a terminal and ``--quiet`` is not given, so piped output and logs stay clean.
:class:`MemoryProgress` is a :class:`deepeval.memory.conditions.ProgressHook`.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any


class MemoryProgress:
    """A context manager showing each stage (``start(stage, total)``) as its own bar, advanced by ``advance()``.
    ``total`` 0 shows a pulsing bar (a stage of unknown length). Disabled, it only counts (``stages``)."""

    def __init__(self, quiet: bool = False, console: Any = None) -> None:
        from rich.console import Console

        self.console = console if console is not None else Console(stderr=True)
        self.enabled = not quiet and bool(self.console.is_terminal)
        self.stages: list[tuple[str, int]] = []
        self.done = 0
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> MemoryProgress:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=self.console,
                transient=False,
            )
            self._progress.__enter__()
        return self

    def _finish_current(self) -> None:
        if self._progress is not None and self._task is not None:
            task = self._progress.tasks[-1]
            if task.total is None:
                self._progress.update(
                    self._task, total=max(1, task.completed), completed=max(1, task.completed)
                )

    def start(self, stage: str, total: int) -> None:
        self.stages.append((stage, total))
        if self._progress is not None:
            self._finish_current()
            self._task = self._progress.add_task(stage, total=total if total > 0 else None)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=n)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._progress is not None:
            if exc_type is None:
                self._finish_current()
            self._progress.__exit__(exc_type, exc, tb)
