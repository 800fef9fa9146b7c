"""The synthesizer's progress display: one line per stage on stderr (rich), with counts, elapsed time and ETA.
Off in a notebook without ipywidgets, like the evaluation's bar.

Where stderr is not a terminal (a log file, a pipe: a long offline run in the background), rich would draw nothing
until the end; there each stage writes plain lines instead (ours): one when it starts, one at most every
:data:`LOG_INTERVAL` seconds while it advances, and one when it completes (or, for a run stopped early, where it stopped), each with its counts, elapsed time and
ETA."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

#: the fewest seconds between two plain progress lines of one stage (its first and last lines always show)
LOG_INTERVAL = 30.0


def _clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


@dataclass
class _Stage:
    description: str
    total: int
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    logged: float = field(default_factory=time.monotonic)
    logged_done: int = 0

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        eta = "?"
        if 0 < self.done < self.total:
            eta = _clock(elapsed / self.done * (self.total - self.done))
        elif self.done >= self.total:
            eta = _clock(0)
        return f"{self.description} {self.done}/{self.total} elapsed {_clock(elapsed)} ETA {eta}"


class _PlainLog:
    """Progress as plain lines on stderr (see the module docstring)."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.stages: list[_Stage] = []

    def _write(self, stage: _Stage) -> None:
        stage.logged = time.monotonic()
        stage.logged_done = stage.done
        print(stage.line(), file=sys.stderr, flush=True)

    def add(self, description: str, total: int) -> int:
        self.stages.append(_Stage(description, total))
        self._write(self.stages[-1])
        return len(self.stages) - 1

    def advance(self, task: int, steps: int) -> None:
        stage = self.stages[task]
        before = stage.done
        stage.done = min(stage.total, stage.done + steps)
        finished = stage.done >= stage.total > before
        if finished or (stage.done > before and time.monotonic() - stage.logged >= self.interval):
            self._write(stage)

    def set_total(self, task: int, total: int) -> None:
        self.stages[task].total = total

    def close(self) -> None:
        """A last line for each stage left unfinished (a run stopped or failed): where it stopped."""
        for stage in self.stages:
            if stage.done < stage.total and stage.done != stage.logged_done:
                self._write(stage)


class SynthesisProgress:
    def __init__(self, enabled: bool = True, interval: float | None = None) -> None:
        self.enabled = enabled
        self.interval = LOG_INTERVAL if interval is None else interval
        self._progress: Any = None
        self._plain: _PlainLog | None = None

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
        elif not console.is_terminal:
            self._plain = _PlainLog(self.interval)
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
        if self._plain is not None:
            return self._plain.add(description, total)
        if self._progress is None:
            return None
        return int(self._progress.add_task(description, total=total))

    def advance(self, task: int | None, steps: int = 1) -> None:
        if task is None or steps <= 0:
            return
        if self._plain is not None:
            self._plain.advance(task, steps)
        elif self._progress is not None:
            self._progress.update(task, advance=steps)  # type: ignore[arg-type]

    def set_total(self, task: int | None, total: int) -> None:
        if task is None:
            return
        if self._plain is not None:
            self._plain.set_total(task, total)
        elif self._progress is not None:
            self._progress.update(task, total=total)  # type: ignore[arg-type]

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._plain is not None:
            self._plain.close()
            self._plain = None
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)
            self._progress = None
