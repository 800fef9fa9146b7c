"""Scheduling of an evaluation run: a bounded worker pool over groups of work items, with a start throttle.

``max_concurrent`` workers pull groups (one group = the work of one test case x repetition, as deepeval's
``max_concurrent`` counts test cases) in input order from a lazy iterator and run a group's items concurrently
(one at a time when ``run_async`` is off); ``throttle_value`` seconds separate two group starts. What an item does
and which rows it owns is the runner's business (:mod:`deepeval.evaluate.runner`); this module only decides when it
runs, and hands an item that raises to ``on_error`` so that no row is lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from deepeval._concurrency import detached


@dataclass
class WorkItem:
    """One unit of scheduled work and the jobs (rows) it is responsible for."""

    run: Callable[[], Awaitable[None]]
    jobs: list[Any] = field(default_factory=list)


def bind(fn: Callable[[Any], Awaitable[None]], arg: Any) -> Callable[[], Awaitable[None]]:
    """``fn(arg)`` as a zero-argument coroutine factory."""
    return lambda: fn(arg)


class Throttle:
    """At least ``interval`` seconds between two starts (FIFO through a lock)."""

    def __init__(self, interval: float) -> None:
        self.interval = float(interval)
        self._lock = asyncio.Lock()
        self._next = 0.0

    async def wait(self) -> None:
        if self.interval <= 0:
            return
        async with self._lock:
            loop = asyncio.get_running_loop()
            delay = self._next - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            self._next = loop.time() + self.interval


async def run_pool(
    groups: Iterator[list[WorkItem]],
    *,
    max_concurrent: int,
    run_async: bool,
    throttle_value: float,
    on_error: Callable[[WorkItem, Exception], None],
) -> None:
    """Run every group of ``groups`` on ``max_concurrent`` workers (1 when ``run_async`` is off)."""
    throttle = Throttle(throttle_value)

    async def run_item(item: WorkItem) -> None:
        try:
            await item.run()
        except Exception as err:  # a bug in a metric hook or in the runner: record it, never lose the rows
            on_error(item, err)

    async def worker() -> None:
        # ``next(groups)`` never awaits, so the workers of this one event loop take turns on the iterator.
        for group in groups:
            await throttle.wait()
            if run_async:
                await asyncio.gather(*(run_item(item) for item in group))
            else:  # sync measures run one at a time
                for item in group:
                    await run_item(item)
            del group  # the metric copies go as soon as their rows are final

    n_workers = max_concurrent if run_async else 1
    workers = [asyncio.create_task(worker()) for _ in range(n_workers)]
    try:
        # detached: a Ctrl-C (cancellation) ends the run now, even if a metric swallows its cancellation
        await detached(asyncio.gather(*workers))
    finally:
        for w in workers:
            w.cancel()
