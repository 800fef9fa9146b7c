"""Per-measure accounting of judge usage (tokens, cost, call counts) through a context variable.

A metric opens :func:`track_usage` around one measure; judge clients and the call layer record into whatever
tracker is current. ``contextvars`` are inherited by asyncio tasks, so concurrent calls inside one measure all
record into the same tracker, and concurrent measures never mix.

Costs are summed in one place, :class:`CostTotal` (:func:`sum_costs` / :func:`cost_total` for a list): a cost is
known only as a finite number >= 0 (:func:`known_cost`), unknown costs are left out of a sum but counted, so a total
with unknown parts is a lower bound that says so (:attr:`CostTotal.partial`; token counts likewise through
:class:`CountTotal`: a count never reported is unknown, not 0), and a sum that is no longer finite (rows of
huge but finite costs overflow to ``inf``) is unknown, as a half-known reply's cost is
(:meth:`deepeval.models.pricing.Price.reply_cost`): never ``$inf``.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


def known_cost(value: Any) -> float | None:
    """``value`` as a cost in USD when it is one: a finite number >= 0 (not a bool); None (unknown) for anything
    else (``nan``, ``inf``, ``-1``, ``True``, ``"0.1"``, an int beyond float)."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return None
    try:
        cost = float(value)
    except OverflowError:
        return None
    return cost if math.isfinite(cost) and cost >= 0 else None


class CostTotal:
    """A running sum of costs (USD): the known ones (:func:`known_cost`) are added, unknown ones are left out and
    counted (:attr:`unknown` of :attr:`parts`), so a total knows whether it is whole or only a lower bound
    (:attr:`partial`). :attr:`value` is None while none is known, and stays None once the sum has overflowed to
    ``inf``: a total past every float is not a cost anyone can read, and a later small cost must not make it look
    known again."""

    __slots__ = ("_sum", "parts", "unknown")

    def __init__(self, start: float | None = None) -> None:
        self._sum: float | None = known_cost(start)
        self.parts = 0
        self.unknown = 0

    def add(self, cost: Any) -> None:
        self.parts += 1
        known = known_cost(cost)
        if known is None:
            self.unknown += 1
        else:
            self._sum = (self._sum or 0.0) + known  # inf once it overflows, and inf + x stays inf

    def merge(self, other: CostTotal) -> None:
        """Add ``other``'s parts (its known sum and its unknown count) to this total."""
        self.parts += other.parts
        self.unknown += other.unknown
        if other._sum is not None:
            self._sum = (self._sum or 0.0) + other._sum

    @property
    def value(self) -> float | None:
        """The sum of the known costs; None when none is known or the sum is not finite."""
        return None if self._sum is None or not math.isfinite(self._sum) else self._sum

    @property
    def partial(self) -> bool:
        """True when :attr:`value` is a number but some parts' costs are unknown: it is then a lower bound."""
        return self.value is not None and self.unknown > 0

    @property
    def whole(self) -> float | None:
        """:attr:`value` when every part's cost is known, else None: the cost of one thing made of the parts (a
        call's requests, a measure's calls, a row's repetitions) is unknown when a part's is."""
        return None if self.unknown else self.value


class CountTotal:
    """A running sum of counts (tokens): a part whose count was never reported (None) is unknown, not 0, and is
    counted in :attr:`unknown`; :attr:`value` is the sum of the known counts, None when every part is unknown (0
    when there are no parts), and a lower bound when :attr:`partial`."""

    __slots__ = ("_sum", "parts", "unknown")

    def __init__(self) -> None:
        self._sum = 0
        self.parts = 0
        self.unknown = 0

    def add(self, count: int | None) -> None:
        self.parts += 1
        if count is None:
            self.unknown += 1
        else:
            self._sum += count

    @property
    def value(self) -> int | None:
        return None if self.parts and self.unknown == self.parts else self._sum

    @property
    def partial(self) -> bool:
        return self.value is not None and self.unknown > 0


def sum_costs(costs: Iterable[Any]) -> float | None:
    """The sum of the known costs among ``costs`` (USD), as :class:`CostTotal` makes it: None when none is known
    or when the sum is not finite (:func:`cost_total` also says how many were unknown)."""
    return cost_total(costs).value


def cost_total(costs: Iterable[Any]) -> CostTotal:
    """A :class:`CostTotal` of ``costs``: its known sum and how many of them were unknown."""
    total = CostTotal()
    for cost in costs:
        total.add(cost)
    return total


@dataclass
class UsageTracker:
    """Accumulated usage. ``cost`` is USD and ``None`` until some call reports a cost (and once the reported costs
    sum past every float: :class:`CostTotal`)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost: float | None = None
    llm_calls: int = 0
    system_one_requests: int = 0
    retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    _cost_total: CostTotal = field(default_factory=CostTotal, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._cost_total = CostTotal(self.cost)

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
                self._cost_total.add(cost)
                self.cost = self._cost_total.value
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
