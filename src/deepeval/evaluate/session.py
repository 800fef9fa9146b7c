"""Hand-off of ``assert_test`` results to the pytest plugin.

The plugin installs a sink around each test; :func:`record` sends the test's :class:`TestResult` to it. With no
sink installed (plain scripts, or the plugin unused) :func:`record` does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deepeval.evaluate.results import TestResult

Sink = Callable[[TestResult], None]
_sink: Sink | None = None
_hyperparameters: dict[str, str] | None = None


def set_sink(sink: Sink | None) -> Sink | None:
    """Install ``sink`` (None removes it); return the previous one."""
    global _sink
    previous, _sink = _sink, sink
    return previous


def collecting() -> bool:
    """True inside a test run by the pytest plugin: that session writes one report for all its results."""
    return _sink is not None


def record(result: TestResult) -> None:
    if _sink is not None:
        _sink(result)


def log_hyperparameters(values: dict[str, str] | None) -> None:
    """Keep the session's hyperparameters (``deepeval.log_hyperparameters``; already processed)."""
    global _hyperparameters
    _hyperparameters = values


def hyperparameters() -> dict[str, str] | None:
    return _hyperparameters


def merge_hyperparameters(func_result: Any, extra: dict[str, Any]) -> dict[str, Any] | None:
    """The decorated function's dict with the decorator's keywords on top (the older ``model=`` /
    ``prompt_template=`` form); None when both are empty or None."""
    if func_result is None and not extra:
        return None
    if func_result is not None and not isinstance(func_result, dict):
        raise TypeError(
            f"a log_hyperparameters function must return a dict or None, got {type(func_result).__name__}"
        )
    return {**(func_result or {}), **extra}


_latest: Any = None


def set_latest(result: Any) -> None:
    """Keep the last finished run (an ``EvaluationResult`` of ``evaluate()`` or of a ``deepeval test run``
    session), for ``deepeval.test_run.global_test_run_manager.get_latest_test_run_data()``."""
    global _latest
    _latest = result


def latest() -> Any:
    return _latest
