"""The synthesizer's progress display: one line per stage on stderr (rich), with counts, elapsed time and ETA.
Off in a notebook without ipywidgets, like the evaluation's bar."""

from __future__ import annotations

from types import TracebackType
from typing import Any


class SynthesisProgress:
    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._progress: Any = None

    def __enter__(self) -> SynthesisProgress:
        if not self.enabled:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True)
        if console.is_jupyter:
            try:
                import ipywidgets  # noqa: F401
            except ImportError:
                self.enabled = False
                return self
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(bar_width=20),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._progress.__enter__()
        return self

    def add(self, description: str, total: int) -> int | None:
        if self._progress is None:
            return None
        return int(self._progress.add_task(description, total=total))

    def advance(self, task: int | None, steps: int = 1) -> None:
        if self._progress is not None and task is not None:
            self._progress.update(task, advance=steps)  # type: ignore[arg-type]

    def set_total(self, task: int | None, total: int) -> None:
        if self._progress is not None and task is not None:
            self._progress.update(task, total=total)  # type: ignore[arg-type]

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)
            self._progress = None
