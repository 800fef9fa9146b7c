"""Run a coroutine from sync code, whether or not an event loop is already running in this thread.

No ``nest_asyncio``: with no running loop we run our own; inside a running loop (Jupyter, FastAPI, pytest-asyncio)
we run the coroutine on a fresh loop in a worker thread and block until it finishes.

The coroutine's return value is handed back through a box, not as the main task's result: on CPython 3.11
``asyncio.run`` (from the main thread) calls ``signal.getsignal(SIGINT)`` after the task ends, which formats a
``ValueError`` message with ``repr()`` of its SIGINT handler, a ``functools.partial`` holding the main task; the
task's repr includes ``repr()`` of its result. For ``evaluate()`` that result is the whole ``EvaluationResult``, so
every run built a throw-away string of all its rows (about 36 KB per test case on the scale bench: 36 MiB of peak
RSS at 1,000 test cases, growing with N). A task whose result is None has a short repr.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result (exceptions propagate unchanged)."""
    box: list[T] = []
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(_into(box, coro))
        return box[0]
    ctx = contextvars.copy_context()  # keep usage trackers and other context visible in the worker
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="deepeval-sync") as pool:
        pool.submit(ctx.run, asyncio.run, _into(box, coro)).result()
    return box[0]


async def _into(box: list[T], coro: Coroutine[Any, Any, T]) -> None:
    """Await ``coro`` and put its result in ``box`` (the task itself returns None; see the module docstring)."""
    box.append(await coro)
