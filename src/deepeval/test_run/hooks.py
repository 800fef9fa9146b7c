"""``@deepeval.on_test_run_end``: a function that ``deepeval test run`` calls once, after pytest has finished and
the results table has been printed (deepeval 4.3.1's hook). Registering again replaces the earlier function; the
hook is cleared once it has run. A plain ``pytest`` run does not call it, as in deepeval."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_hook: Callable[[], Any] | None = None


def on_test_run_end(func: F) -> F:
    """Register ``func`` (called with no arguments) as the end-of-test-run hook; return it unchanged."""
    global _hook
    _hook = func
    return func


def invoke_test_run_end_hook() -> None:
    """Call the registered hook once, then forget it (nothing happens when none is registered)."""
    global _hook
    hook, _hook = _hook, None
    if hook is not None:
        hook()
