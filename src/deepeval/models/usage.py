"""Per-measure accounting of judge usage (tokens, cost, call counts) through a context variable.

A metric opens :func:`track_usage` around one measure; judge clients and the call layer record into whatever
tracker is current. ``contextvars`` are inherited by asyncio tasks, so concurrent calls inside one measure all
record into the same tracker, and concurrent measures never mix.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class UsageTracker:
    """Accumulated usage. ``cost`` is USD and ``None`` until some call reports a cost."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    llm_calls: int = 0
    system_one_requests: int = 0
    retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(
        self,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cost: float | None = None,
        llm_calls: int = 0,
        system_one_requests: int = 0,
        retries: int = 0,
    ) -> None:
        with self._lock:
            self.input_tokens += input_tokens or 0
            self.output_tokens += output_tokens or 0
            if cost is not None:
                self.cost = (self.cost or 0.0) + cost
            self.llm_calls += llm_calls
            self.system_one_requests += system_one_requests
            self.retries += retries


_current: contextvars.ContextVar[UsageTracker | None] = contextvars.ContextVar("deepeval_usage", default=None)


def current_tracker() -> UsageTracker | None:
    return _current.get()


def record_usage(**kwargs: int | float | None) -> None:
    """Add to the current tracker (no-op outside :func:`track_usage`). Keywords as :meth:`UsageTracker.add`."""
    tracker = _current.get()
    if tracker is not None:
        tracker.add(**kwargs)  # type: ignore[arg-type]


@contextlib.contextmanager
def track_usage(tracker: UsageTracker | None = None) -> Iterator[UsageTracker]:
    """Make ``tracker`` (a new one by default) current for the block; nested blocks also feed outer trackers."""
    outer = _current.get()
    t = tracker or UsageTracker()
    token = _current.set(_Chained(t, outer) if outer is not None else t)
    try:
        yield t
    finally:
        _current.reset(token)


class _Chained(UsageTracker):
    """Records into an inner tracker and its enclosing one."""

    def __init__(self, inner: UsageTracker, outer: UsageTracker) -> None:
        super().__init__()
        self._inner, self._outer = inner, outer

    def add(self, **kwargs: int | float | None) -> None:
        self._inner.add(**kwargs)  # type: ignore[arg-type]
        self._outer.add(**kwargs)  # type: ignore[arg-type]


#: one box per call the structured layer counted: how many of its ``llm_calls`` a client has not claimed yet
_counted: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar(
    "deepeval_counted_call", default=None
)


@contextlib.contextmanager
def counted_call() -> Iterator[None]:
    """Count one ``llm_calls`` now for a call made inside the block (the structured layer's view of one call, made
    whether it succeeds or fails). A client inside it that counts its own requests with :func:`record_llm_request`
    claims that count for its first request instead of adding another, so a call that became two requests (a
    client's own re-ask) is counted twice, never three times."""
    record_usage(llm_calls=1)
    token = _counted.set([1])
    try:
        yield
    finally:
        _counted.reset(token)


def record_llm_request() -> None:
    """A client sends one LLM request: it counts in ``llm_calls`` unless it is the call an enclosing
    :func:`counted_call` already counted."""
    box = _counted.get()
    if box is not None and box[0] > 0:
        box[0] -= 1
        return
    record_usage(llm_calls=1)
