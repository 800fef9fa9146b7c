"""``deepeval.test_run``: what test files run by ``deepeval test run`` import from deepeval's test-run module.

:func:`log_hyperparameters` records the run's hyperparameters at import time of the test file; the pytest plugin
puts them in the session's :class:`~deepeval.evaluate.results.EvaluationResult` (``hyperparameters``, kept as
``evaluate(hyperparameters=...)`` keeps them) and in its export. Confident AI test-run objects have no local
equivalent here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, overload

from deepeval.evaluate import _session
from deepeval.evaluate.configs import TestRunResultDisplay
from deepeval.evaluate.results import MetricData
from deepeval.test_run.hooks import invoke_test_run_end_hook, on_test_run_end

F = TypeVar("F", bound=Callable[..., Any])


def _record(func: F, extra: dict[str, Any]) -> F:
    from deepeval.evaluate.api import process_hyperparameters

    _session.log_hyperparameters(process_hyperparameters(_session.merge_hyperparameters(func(), extra)))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@overload
def log_hyperparameters(func: F, /) -> F: ...
@overload
def log_hyperparameters(func: None = None, /, **values: Any) -> Callable[[F], F]: ...
def log_hyperparameters(func: F | None = None, /, **values: Any) -> F | Callable[[F], F]:
    """Decorator for a function returning ``{name: str | int | float | None}``: the function is called once, when
    decorated, and its dict becomes the test run's hyperparameters (a later decorated function replaces it).

    Both spellings work: ``@log_hyperparameters`` (deepeval 4.x) and ``@log_hyperparameters(model=...,
    prompt_template=...)`` (older docs; the keywords are added to the function's dict).

    Raises:
        TypeError: the function returns something other than a dict or None, or a key/value of the wrong type.
    """
    if func is not None:
        if not callable(func):
            raise TypeError(f"log_hyperparameters decorates a function, got {type(func).__name__}")
        return _record(func, values)
    return lambda f: _record(f, values)


__all__ = [
    "MetricData",
    "TestRunResultDisplay",
    "invoke_test_run_end_hook",
    "log_hyperparameters",
    "on_test_run_end",
]
