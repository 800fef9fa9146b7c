"""Async HTTP clients kept per event loop.

An async HTTP client's connection pool belongs to the loop that opened it, while one judge object may be used from
several loops (``asyncio.run`` per sync call, a runner's worker thread, Jupyter). :class:`PerLoop` hands each
running loop its own client, drops clients whose loop has closed, and lets a sync call run on a private client
that is closed when the call ends (so short-lived loops leak nothing).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Generic, TypeVar

C = TypeVar("C")
T = TypeVar("T")


class PerLoop(Generic[C]):
    """Clients made by ``factory()``, one per running event loop; ``closer(client)`` closes one."""

    def __init__(
        self,
        factory: Callable[[], C],
        closer: Callable[[C], Awaitable[Any]],
        private: tuple[Callable[[], C], Callable[[C], Awaitable[Any]]] | None = None,
    ) -> None:
        """``private``: another (factory, closer) pair for :meth:`run_private`, when a per-call client must differ
        from the per-loop ones (e.g. those wrap a caller's HTTP client bound to the caller's loop)."""
        self._factory = factory
        self._closer = closer
        self._private_pair = private or (factory, closer)
        self._lock = threading.Lock()
        self._clients: dict[int, tuple[weakref.ref[asyncio.AbstractEventLoop], C]] = {}
        self._private: contextvars.ContextVar[C | None] = contextvars.ContextVar("deepeval_private_client")

    def get(self) -> C:
        """The client for the running loop (the call's private client inside :meth:`run_private`)."""
        private = self._private.get(None)
        if private is not None:
            return private
        loop = asyncio.get_running_loop()
        with self._lock:
            for loop_id, (ref, _client) in list(self._clients.items()):
                other = ref()
                if other is None or other.is_closed():
                    del self._clients[loop_id]
            entry = self._clients.get(id(loop))
            if entry is None:
                entry = (weakref.ref(loop), self._factory())
                self._clients[id(loop)] = entry
            return entry[1]

    async def run_private(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` with a fresh client that is closed afterwards."""
        factory, closer = self._private_pair
        client = factory()
        token = self._private.set(client)
        try:
            return await coro
        finally:
            self._private.reset(token)
            await closer(client)

    async def aclose(self) -> None:
        """Close the running loop's client, if any."""
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._clients.pop(id(loop), None)
        if entry is not None:
            await self._closer(entry[1])

    def clear(self) -> None:
        """Forget every cached client (without closing them; for configuration changes in tests)."""
        with self._lock:
            self._clients.clear()
