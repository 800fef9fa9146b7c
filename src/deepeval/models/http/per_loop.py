"""Async HTTP clients kept per event loop.

An async HTTP client's connection pool belongs to the loop that opened it, while one judge object may be used from
several loops (``asyncio.run`` per sync call, a runner's worker thread, Jupyter). :class:`PerLoop` hands each
running loop its own client, closes it when that loop shuts down, and lets a sync call run on a private client
that is closed when the call ends (so short-lived loops leak nothing).

Closing at shutdown: asyncio has no "loop is closing" callback, but ``asyncio.run`` (and ``asyncio.Runner``,
pytest-asyncio, IPython's runner) calls ``loop.shutdown_asyncgens()`` before closing, which closes every async
generator the loop has seen started. Each client gets a small guard generator, started on its loop and parked at its
``yield``; shutting the loop down runs the guard's ``finally``, which closes the client on the loop that owns it.
That matters for transports such as aiohttp, whose sessions must be closed on their own loop and warn otherwise.
A loop closed without that step (a hand-made loop closed with ``loop.close()``) drops its clients unclosed, as
before.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import threading
import weakref
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

C = TypeVar("C")
T = TypeVar("T")

_log = logging.getLogger(__name__)


_Entry = tuple["weakref.ref[asyncio.AbstractEventLoop]", Any, AsyncGenerator[None, None]]


class _Shared:
    """The clients of one ``share_key``, with how many live pools use them."""

    __slots__ = ("clients", "lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.clients: dict[int, _Entry] = {}
        self.users = 0


# Pools shared by every PerLoop built with the same ``share_key``: judge objects with one configuration (a judge
# made per request in a web app, a metric copy per test case) use one client per loop instead of one each, so
# their connections are reused and nothing waits on garbage collection to be closed. An entry lives while a pool
# uses it; when the last one is gone its clients are closed on their loops and the entry is dropped.
_SHARED: dict[Hashable, _Shared] = {}
_SHARED_LOCK = threading.Lock()


def share_key(*parts: Any) -> Hashable | None:
    """A ``share_key`` made of ``parts`` when they are all plain data (str, numbers, bool, None, and lists, tuples
    and dicts of those), else None: a client option that is an object (a transport, an http client, a hook) makes
    the client the caller's own, never shared. The key is a digest of the parts, so the registry never holds an API
    key in plain text."""

    def freeze(value: Any) -> Hashable:
        if value is None or isinstance(value, (str, int, float, bool)):
            return (type(value).__name__, value)
        if isinstance(value, (list, tuple)):
            return ("seq", tuple(freeze(v) for v in value))
        if isinstance(value, dict):
            return ("map", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
        raise TypeError

    try:
        frozen = tuple(freeze(p) for p in parts)
    except TypeError:
        return None
    return hashlib.sha256(repr(frozen).encode("utf-8", "backslashreplace")).hexdigest()


def _acquire(key: Hashable) -> _Shared:
    with _SHARED_LOCK:
        shared = _SHARED.get(key)
        if shared is None:
            shared = _SHARED[key] = _Shared()
        shared.users += 1
        return shared


def _release(key: Hashable) -> None:
    """A pool using ``key`` is gone (garbage-collected): the last one closes the key's clients on their loops."""
    with _SHARED_LOCK:
        shared = _SHARED.get(key)
        if shared is None:
            return
        shared.users -= 1
        if shared.users > 0:
            return
        del _SHARED[key]
    with shared.lock:
        entries = list(shared.clients.values())
        shared.clients.clear()
    for ref, _client, guard in entries:
        loop = ref()
        if loop is not None and not loop.is_closed():
            try:  # may run in any thread (a garbage collection): hand the close to the client's own loop
                loop.call_soon_threadsafe(_close_soon, loop, guard)
            except RuntimeError:  # the loop closed meanwhile
                pass


def _close_soon(loop: asyncio.AbstractEventLoop, guard: AsyncGenerator[None, None]) -> None:
    loop.create_task(guard.aclose())


class PerLoop(Generic[C]):
    """Clients made by ``factory()``, one per running event loop; ``closer(client)`` closes one."""

    def __init__(
        self,
        factory: Callable[[], C],
        closer: Callable[[C], Awaitable[Any]],
        private: tuple[Callable[[], C], Callable[[C], Awaitable[Any]]] | None = None,
        share_key: Hashable | None = None,
    ) -> None:
        """``private``: another (factory, closer) pair for :meth:`run_private`, when a per-call client must differ
        from the per-loop ones (e.g. those wrap a caller's HTTP client bound to the caller's loop).
        ``share_key``: pools with equal keys share their per-loop clients (the key must capture everything the
        factory's client depends on: class, URL, key, timeout, client options)."""
        self._factory = factory
        self._closer = closer
        self._private_pair = private or (factory, closer)
        self._share_key = share_key
        self._shared: _Shared | None = None
        if share_key is None:
            self._lock = threading.Lock()
            # loop id -> (the loop, its client, the guard that closes the client when the loop shuts down)
            self._clients: dict[int, _Entry] = {}
        else:
            self._shared = _acquire(share_key)
            self._lock, self._clients = self._shared.lock, self._shared.clients
            weakref.finalize(self, _release, share_key)
        self._private: contextvars.ContextVar[C | None] = contextvars.ContextVar("deepeval_private_client")

    def get(self) -> C:
        """The client for the running loop (the call's private client inside :meth:`run_private`)."""
        private = self._private.get(None)
        if private is not None:
            return private
        loop = asyncio.get_running_loop()
        with self._lock:
            for loop_id, (ref, _client, _guard) in list(self._clients.items()):
                other = ref()
                if other is None or other.is_closed():
                    del self._clients[loop_id]
            entry = self._clients.get(id(loop))
            if entry is None:
                client = self._factory()
                guard = _start_guard(self._lock, self._clients, id(loop), client, self._closer)
                entry = (weakref.ref(loop), client, guard)
                self._clients[id(loop)] = entry
            return entry[1]

    async def run_private(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` with a fresh client that is closed afterwards."""
        factory, closer = self._private_pair
        try:
            client = factory()
        except BaseException:
            coro.close()  # never started: close it, or Python warns it was never awaited
            raise
        token = self._private.set(client)
        try:
            return await coro
        finally:
            self._private.reset(token)
            await closer(client)

    async def aclose(self) -> None:
        """Close the running loop's client, if any. A client shared with other live pools (``share_key``) stays
        open for them: it is closed when the last of them is gone or the loop shuts down."""
        if self._shared is not None and self._shared.users > 1:
            return
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._clients.get(id(loop))
        if entry is not None:
            await entry[2].aclose()  # the guard's ``finally`` forgets the client and closes it

    def clear(self) -> None:
        """Forget every cached client (for configuration changes in tests); each is closed on its own loop soon
        after, when its guard is collected, or at that loop's shutdown."""
        with self._lock:
            self._clients.clear()


def _start_guard(
    lock: threading.Lock,
    clients: dict[int, _Entry],
    loop_id: int,
    client: Any,
    closer: Callable[[Any], Awaitable[Any]],
) -> AsyncGenerator[None, None]:
    """Start (on the running loop) the guard generator that closes ``client`` when the loop shuts down, or earlier
    when ``aclose()`` or the last judge sharing the client closes the guard. The guard refers to the pool's dict,
    never to a judge or pool object, so dropping a judge does not leave the client to the garbage collector (which
    could finalize an aiohttp session before closing it, and aiohttp reports that as an unclosed session)."""
    guard = _guard(lock, clients, loop_id, client, closer)
    step = guard.asend(None)  # registers the generator with the running loop's async-generator hooks
    try:
        step.send(None)  # runs it to its ``yield``: no await before it, so this completes synchronously
    except StopIteration:
        pass
    return guard


async def _guard(
    lock: threading.Lock,
    clients: dict[int, _Entry],
    loop_id: int,
    client: Any,
    closer: Callable[[Any], Awaitable[Any]],
) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        with lock:
            entry = clients.get(loop_id)
            if entry is not None and entry[1] is client:
                del clients[loop_id]
        try:
            await closer(client)
        except Exception as exc:  # closing is best effort: a failed close must not fail the caller's shutdown
            _log.debug("closing a judge HTTP client at loop shutdown failed: %s", type(exc).__name__)
