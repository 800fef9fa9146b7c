"""Run a coroutine from sync code, whether or not an event loop is already running in this thread.

No ``nest_asyncio``: with no running loop we run our own; inside a running loop (Jupyter, FastAPI, pytest-asyncio)
we run the coroutine on a fresh loop in a worker thread and block until it finishes.
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
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    ctx = contextvars.copy_context()  # keep usage trackers and other context visible in the worker
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="deepeval-sync") as pool:
        return pool.submit(ctx.run, asyncio.run, coro).result()
