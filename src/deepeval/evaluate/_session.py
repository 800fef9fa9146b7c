"""Hand-off of ``assert_test`` results to the pytest plugin.

The plugin installs a sink around each test; :func:`record` sends the test's :class:`TestResult` to it. With no
sink installed (plain scripts, or the plugin unused) :func:`record` does nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from deepeval.evaluate.results import TestResult

Sink = Callable[[TestResult], None]
_sink: Sink | None = None


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
