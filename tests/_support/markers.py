"""The two markers that sort regression tests (registered in ``pyproject.toml``).

* ``regression``: the test guards a bug that was found and fixed, named by the behaviour it keeps. A bug still open
  is a strict xfail whose reason starts with ``BUG``, and it carries this marker too.
* ``known_limit``: a strict xfail of a known limitation (of the embedded judge, or of a format), whose reason gives
  the measured numbers. It turns into a failure (XPASS strict) the day the limit is lifted, so it cannot go stale.

``pytest -m "regression and not known_limit"`` selects the bug regressions; ``pytest -m known_limit -rx`` lists
every limit with its numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import pytest

F = TypeVar("F", bound=Callable[..., Any])

#: module-level mark of a regression test file: ``pytestmark = REGRESSION``
REGRESSION = [pytest.mark.regression, pytest.mark.usefixtures("regression_env")]


class KnownLimit(tuple):  # type: ignore[type-arg]
    """The marks of a known limit: usable as a decorator (``@known_limit(...)``) and as ``pytest.param(...,
    marks=known_limit(...))``."""

    def __call__(self, fn: F) -> F:
        for mark in self:
            fn = mark(fn)
        return fn


def known_limit(reason: str, *, strict: bool = True) -> KnownLimit:
    """``xfail(strict=True, reason=...)`` plus the ``known_limit`` marker. ``strict=False`` only for a limit whose
    outcome depends on test order (the reason says so); every other limit is strict."""
    if not reason.strip():
        raise ValueError("a known limit needs a reason with its measured numbers")
    return KnownLimit(
        (pytest.mark.xfail(strict=strict, reason=reason), pytest.mark.known_limit(reason=reason))
    )
