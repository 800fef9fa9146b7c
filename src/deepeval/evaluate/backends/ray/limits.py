"""Cluster-wide judge rate limits for the Ray backend.

One limiter actor per run holds, per judge, a request schedule and a concurrency count; every worker asks it
before each judge call. The hook is the judge object itself: on the worker, the judge's ``a_generate`` /
``generate`` / ``a_decide`` / ``decide`` are replaced *on that instance* by versions that first get permission
(:func:`install_limits`), so clients need no change and the judge keeps its type and name (cache keys and result
rows do not change). Retries made inside one client call count as one call.

Requests per second use the generic cell rate algorithm (GCRA, ITU-T I.371): the actor keeps a theoretical
arrival time ``tat`` per judge; a call at time ``now`` is scheduled at ``max(now, tat - (burst - 1) / rps)`` and
moves ``tat`` on by ``1 / rps``. The actor returns the *delay* (seconds to wait) rather than a timestamp, so clocks
of different nodes never need to agree. Over any window of ``T`` seconds at most ``burst + rps * T`` calls start.

A worker whose event loop stalls (CPU contention, a block starting) would wake several booked calls late and
start them together; a call that wakes more than :func:`late_tolerance` after its slot books a new slot instead,
so short windows hold too, at the cost of some unused slots after a stall.

Concurrency (``max_concurrent``) uses leases: a call takes a lease before it starts and returns it when it ends;
a lease not returned within ``lease_timeout_s`` (its worker died) is reclaimed.
"""

from __future__ import annotations

import asyncio
import functools
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from deepeval.evaluate.backends.ray.options import ANY_JUDGE, RateLimit


class LimiterState:
    """The limiter's bookkeeping (plain Python; the Ray actor wraps it). ``clock`` returns seconds."""

    def __init__(
        self,
        limits: Mapping[str, RateLimit],
        *,
        lease_timeout_s: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = dict(limits)
        self.lease_timeout_s = lease_timeout_s
        self.clock = clock
        self._tat: dict[str, float] = {}
        self._leases: dict[str, dict[str, float]] = {}
        self.granted: dict[str, int] = {}
        self.rebooked: dict[str, int] = {}

    def reserve(self, judge: str, rebook: bool = False) -> float:
        """Book the next call of ``judge``; returns seconds to wait before starting it (0.0 = now). ``rebook``:
        the same call again, after it woke up too late for its first slot (counted in ``rebooked``)."""
        limit = self.limits[judge]
        counts = self.rebooked if rebook else self.granted
        counts[judge] = counts.get(judge, 0) + 1
        rps = limit.requests_per_second
        if rps is None:
            return 0.0
        interval = 1.0 / rps
        now = self.clock()
        tat = max(self._tat.get(judge, now), now)
        start = max(now, tat - (limit.burst - 1) * interval)
        self._tat[judge] = max(tat, start) + interval
        return start - now

    def try_lease(self, judge: str, lease: str) -> bool:
        """Take a concurrency lease for ``judge`` if one is free (always True without ``max_concurrent``)."""
        limit = self.limits[judge]
        if limit.max_concurrent is None:
            return True
        held = self._leases.setdefault(judge, {})
        now = self.clock()
        for key, taken in list(held.items()):
            if now - taken > self.lease_timeout_s:
                del held[key]  # its worker died without returning it
        if len(held) >= limit.max_concurrent:
            return False
        held[lease] = now
        return True

    def release(self, judge: str, lease: str) -> None:
        self._leases.get(judge, {}).pop(lease, None)

    def in_flight(self, judge: str) -> int:
        return len(self._leases.get(judge, {}))


class LimiterActor:
    """The Ray actor around :class:`LimiterState` (an async actor: waiting calls do not block others)."""

    def __init__(self, limits: Mapping[str, RateLimit], lease_timeout_s: float = 600.0) -> None:
        self.state = LimiterState(limits, lease_timeout_s=lease_timeout_s)
        self._changed: asyncio.Event | None = None

    def _event(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    async def reserve(self, judge: str, rebook: bool = False) -> float:
        return self.state.reserve(judge, rebook)

    async def acquire(self, judge: str, lease: str) -> float:
        """Wait for a concurrency lease, then book the call; returns the rate delay in seconds."""
        while not self.state.try_lease(judge, lease):
            event = self._event()
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), timeout=1.0)  # wake up to reclaim stale leases too
            except asyncio.TimeoutError:
                pass
        return self.state.reserve(judge)

    async def release(self, judge: str, lease: str) -> None:
        self.state.release(judge, lease)
        self._event().set()

    async def stats(self) -> dict[str, dict[str, int]]:
        """``{"calls": judge -> calls let through, "rebooked": judge -> calls that had to book a second slot}``."""
        return {"calls": dict(self.state.granted), "rebooked": dict(self.state.rebooked)}


def limit_for(limits: Mapping[str, RateLimit], name: str) -> str | None:
    """The key of ``limits`` that applies to judge ``name``: its own entry, else ``"*"``, else None."""
    if name in limits:
        return name
    return ANY_JUDGE if ANY_JUDGE in limits else None


# -- the hook on judge instances ---------------------------------------------------------------------------------
#: the judge methods a call goes through (``a_structured_attempt``: one structured-output request, see
#: :class:`deepeval.models.structured.StructuredAttempts`)
_METHODS = ("a_generate", "generate", "a_structured_attempt", "a_decide", "decide")
_SAVED = "_deepeval_ray_unlimited"


def late_tolerance(limit: RateLimit) -> float | None:
    """How late (seconds) a call may start after its booked slot: half an interval, at least 5 ms; None without a
    rate. A call that wakes up later than this (its worker's event loop stalled) books a new slot instead of
    starting, so calls delayed by a stall never start together: over any window of ``T`` seconds at most
    ``burst + rps * (T + tolerance)`` calls start."""
    rps = limit.requests_per_second
    return None if rps is None else max(0.5 / rps, 0.005)


class _Gate:
    """Asks the limiter actor before a call (async or blocking)."""

    def __init__(self, actor: Any, key: str, limit: RateLimit) -> None:
        self.actor = actor
        self.key = key
        self.concurrent = limit.max_concurrent is not None
        self.tolerance = late_tolerance(limit)

    async def _a_wait(self, delay: float) -> None:
        while True:
            deadline = time.monotonic() + delay
            if delay > 0:
                await asyncio.sleep(delay)
            if self.tolerance is None or time.monotonic() - deadline <= self.tolerance:
                return
            delay = await self.actor.reserve.remote(self.key, True)  # too late for the slot: book a new one

    def _wait(self, delay: float) -> None:
        import ray

        while True:
            deadline = time.monotonic() + delay
            if delay > 0:
                time.sleep(delay)
            if self.tolerance is None or time.monotonic() - deadline <= self.tolerance:
                return
            delay = ray.get(self.actor.reserve.remote(self.key, True))

    async def a_call(self, fn: Callable[..., Any], args: Any, kwargs: Any) -> Any:
        if not self.concurrent:
            await self._a_wait(await self.actor.reserve.remote(self.key))
            return await fn(*args, **kwargs)
        lease = uuid.uuid4().hex
        delay = await self.actor.acquire.remote(self.key, lease)
        try:
            await self._a_wait(delay)
            return await fn(*args, **kwargs)
        finally:
            self.actor.release.remote(self.key, lease)

    def call(self, fn: Callable[..., Any], args: Any, kwargs: Any) -> Any:
        import ray

        if not self.concurrent:
            self._wait(ray.get(self.actor.reserve.remote(self.key)))
            return fn(*args, **kwargs)
        lease = uuid.uuid4().hex
        delay = ray.get(self.actor.acquire.remote(self.key, lease))
        try:
            self._wait(delay)
            return fn(*args, **kwargs)
        finally:
            self.actor.release.remote(self.key, lease)


def _wrap(gate: _Gate, fn: Callable[..., Any], is_async: bool) -> Callable[..., Any]:
    if is_async:

        @functools.wraps(fn)
        async def limited_async(*args: Any, **kwargs: Any) -> Any:
            return await gate.a_call(fn, args, kwargs)

        return limited_async

    @functools.wraps(fn)
    def limited(*args: Any, **kwargs: Any) -> Any:
        return gate.call(fn, args, kwargs)

    return limited


def judges_of(metrics: Iterable[Any]) -> list[Any]:
    """Distinct judge objects held by ``metrics`` (resolved engine judges, ``model`` / ``system_one_model``
    arguments and attributes)."""
    from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel

    found: dict[int, Any] = {}
    for metric in metrics:
        candidates = [
            getattr(metric, attr, None)
            for attr in ("model_argument", "system_one_model_argument", "model", "system_one_model")
        ]
        resolved = getattr(metric, "_judges", None)
        if resolved is not None:
            candidates += [getattr(resolved, "llm", None), getattr(resolved, "system_one", None)]
        for judge in candidates:
            if isinstance(judge, (DeepEvalBaseLLM, DeepEvalBaseSystemOneModel)):
                found.setdefault(id(judge), judge)
    return list(found.values())


def install_limits(judges: Iterable[Any], limits: Mapping[str, RateLimit], actor: Any) -> list[Any]:
    """Put the limiter in front of the call methods of every judge that has a limit; returns the judges patched
    (give them to :func:`remove_limits` when the block ends: the embedded judge is shared by the process).

    A judge's limit is the entry for its ``get_model_name()``, else for its ``name`` attribute (e.g. TypeSafe's
    ``jev-latest`` before a reply named the resolved version), else ``"*"``."""
    patched = []
    for judge in judges:
        names = [str(getattr(judge, "name", "") or "")]
        try:
            names.insert(0, str(judge.get_model_name()))
        except Exception:
            names.append(type(judge).__name__)
        key = next((limit_for(limits, n) for n in names if n and n in limits), None) or limit_for(limits, "")
        if key is None or _SAVED in judge.__dict__:
            continue
        gate = _Gate(actor, key, limits[key])
        saved = {}
        for method in _METHODS:
            fn = getattr(judge, method, None)
            if fn is None:
                continue
            saved[method] = judge.__dict__.get(method)
            setattr(judge, method, _wrap(gate, fn, asyncio.iscoroutinefunction(fn)))
        judge.__dict__[_SAVED] = saved
        patched.append(judge)
    return patched


def remove_limits(judges: Iterable[Any]) -> None:
    """Undo :func:`install_limits` on ``judges``."""
    for judge in judges:
        saved = judge.__dict__.pop(_SAVED, None)
        if saved is None:
            continue
        for method, original in saved.items():
            if original is None:
                judge.__dict__.pop(method, None)
            else:
                judge.__dict__[method] = original
