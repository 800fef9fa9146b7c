"""``assert_test``, deepeval's pytest assertion, in both of 4.3.1's forms: ``assert_test(test_case, metrics)``
(:func:`deepeval.evaluate.api.assert_test_case`) and ``assert_test(golden=golden, metrics=[...])`` after a traced
call (the test case built from the trace by :mod:`deepeval.evaluate.components`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from deepeval.evaluate import session
from deepeval.evaluate.api import assert_test_case, metric_list, pytest_node_id, raise_for_results
from deepeval.evaluate.configs import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig

if TYPE_CHECKING:
    from deepeval.metrics.base_metric import BaseMetric
    from deepeval.test_case import ConversationalTestCase, LLMTestCase


def assert_test(
    test_case: LLMTestCase | ConversationalTestCase | None = None,
    metrics: list[BaseMetric] | None = None,
    golden: Any = None,
    run_async: bool = True,
) -> None:
    """Measure ``test_case`` with ``metrics`` and raise ``AssertionError`` if any non-flaky metric fails or errors
    (:func:`~deepeval.evaluate.api.assert_test_case` says how: options, message, flaky test cases, errors).

    ``assert_test(golden=golden, metrics=[...])`` (no test case), after the test called a traced app
    (``@observe``): the test case is built from the trace, as ``evals_iterator`` builds it (input from the golden,
    output and the rest from the trace, ``update_current_trace``, else the golden's expected output, contexts and
    expected tools), measured with ``metrics`` plus the trace's own metrics, and every span with metrics is measured
    on its own test case (component-level); any failing row fails the assertion. The trace is the one running (the
    call is inside an observed function or a ``with trace():`` block), else the traces the test finished since the
    last such call (the pytest plugin collects them per test). deepeval 4.3.1 does this only under ``deepeval test
    run``; ours also under plain ``pytest``.

    Raises:
        AssertionError: a metric failed, or errored without raising (unless ignore-errors is on).
        DeepEvalError: ``golden=`` with no trace to build the test case from.
        ValueError: neither a test case nor a golden (deepeval 4.3.1's message); the checks of :func:`evaluate`.
        Exception: what a metric's measure raised, as in deepeval.
    """
    __tracebackhide__ = True  # pytest: the failure points at the test, not at this function
    if test_case is None and golden is not None:
        _assert_golden(golden, metrics, run_async)
        return
    assert_test_case(test_case, metrics, run_async)


_NO_TRACE = (
    "No active trace found for this test. `assert_test(golden=..., metrics=...)` builds its test case from the "
    "trace of your app: call at least one @observe-decorated function first, in a pytest test (deepeval's plugin "
    "collects each test's traces) or inside a `with trace():` block."
)


def _assert_golden(golden: Any, metrics: Any, run_async: bool) -> None:
    """``assert_test(golden=golden, metrics=...)`` (see :func:`assert_test`)."""
    __tracebackhide__ = True
    from deepeval._concurrency import run_sync
    from deepeval.config.test_run_options import TestRunOptions
    from deepeval.errors import DeepEvalError
    from deepeval.evaluate.components import a_measure_golden
    from deepeval.tracing import current_trace_context, take_test_traces

    mets = [] if metrics is None else metric_list(metrics, "metrics")
    if not isinstance(getattr(golden, "input", None), str):
        raise TypeError(f"golden must be a deepeval Golden (with an input), got {type(golden).__name__}")
    running = current_trace_context.get()
    traces = [running] if running is not None else take_test_traces()
    if not traces:
        raise DeepEvalError(_NO_TRACE)
    options = TestRunOptions.read()
    results, first_exception = run_sync(
        a_measure_golden(
            golden,
            traces,
            mets,
            AsyncConfig(run_async=run_async),
            DisplayConfig(
                show_indicator=False,
                print_results=False,
                verbose_mode=True if options.verbose_mode else None,
                _session_report=session.collecting(),
            ),
            CacheConfig(write_cache=options.use_cache, use_cache=options.use_cache),
            ErrorConfig(ignore_errors=True, skip_on_missing_params=options.skip_on_missing_params),
        )
    )
    node = pytest_node_id()
    if node is not None and results[0].name.startswith("test_case_"):
        results[0].name = node
    for r in results:
        session.record(r)
    raise_for_results(results, first_exception, options.ignore_errors, False)


__all__ = ["assert_test"]
