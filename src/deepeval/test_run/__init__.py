"""``deepeval.test_run``: what test files run by ``deepeval test run`` import from deepeval's test-run module.

:func:`log_hyperparameters` records the run's hyperparameters at import time of the test file; the pytest plugin
puts them in the session's :class:`~deepeval.evaluate.results.EvaluationResult` (``hyperparameters``, kept as
``evaluate(hyperparameters=...)`` keeps them) and in its export.

:class:`TestRun` and :data:`global_test_run_manager` give deepeval's names to our test-run state: during a
``deepeval test run`` (pytest) session ``global_test_run_manager.get_test_run()`` holds the results recorded so far
(one :class:`~deepeval.evaluate.results.TestResult` per ``assert_test``, where deepeval keeps its API test-case
objects); ``get_latest_test_run_data()`` is the last finished run, of ``evaluate()`` or of a session.
``get_latest_test_run_link()`` is always None (results stay local: there is no Confident AI link).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar, overload

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from deepeval.evaluate import session
from deepeval.evaluate.configs import TestRunResultDisplay
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult, usage_totals
from deepeval.models.usage import CostTotal
from deepeval.test_run.hooks import invoke_test_run_end_hook, on_test_run_end

F = TypeVar("F", bound=Callable[..., Any])


def _record(func: F, extra: dict[str, Any]) -> F:
    from deepeval.evaluate.api import process_hyperparameters

    session.log_hyperparameters(process_hyperparameters(session.merge_hyperparameters(func(), extra)))

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


class TestRun(BaseModel):
    """One test run, with deepeval 4.3.1's field names (and their camelCase aliases): the test cases' results
    split into ``test_cases`` and ``conversational_test_cases``, the pass/fail counts (a test case passes when its
    status is ``passed``; errored ones count as failed, as deepeval counts them), the summed known
    ``evaluation_cost`` (None when none is known, or when some measure's cost is unknown), ``run_duration`` in seconds, ``identifier`` and
    ``hyperparameters``."""

    __test__ = False  # not a pytest test class
    model_config = ConfigDict(populate_by_name=True, arbitrary_types_allowed=True)

    test_file: str | None = Field(None, alias="testFile")
    test_cases: list[TestResult] = Field(default_factory=list, alias="testCases")
    conversational_test_cases: list[TestResult] = Field(default_factory=list, alias="conversationalTestCases")
    identifier: str | None = None
    hyperparameters: dict[str, Any] | None = None
    test_passed: int | None = Field(None, alias="testPassed")
    test_failed: int | None = Field(None, alias="testFailed")
    run_duration: float = Field(0.0, alias="runDuration")
    evaluation_cost: float | None = Field(None, alias="evaluationCost")
    #: the running sum behind ``evaluation_cost`` (it stays unknown once it has overflowed)
    _cost: CostTotal | None = PrivateAttr(default=None)

    def add_test_case(self, result: TestResult) -> None:
        """Add one test case's result (by its ``conversational`` flag) and its known cost."""
        (self.conversational_test_cases if result.conversational else self.test_cases).append(result)
        if self._cost is None:
            self._cost = CostTotal(self.evaluation_cost)
        self._cost.merge(usage_totals(result.metrics_data)[0])
        # as the test_run file: unknown (None) when some measure's cost is unknown, not the sum of the others
        self.evaluation_cost = None if self._cost.partial else self._cost.value

    def calculate_test_passes_and_fails(self) -> None:
        """Set ``test_passed`` / ``test_failed`` from the results (skipped test cases count as neither)."""
        statuses = [r.status for r in self.test_cases + self.conversational_test_cases]
        self.test_passed = statuses.count("passed")
        self.test_failed = statuses.count("failed") + statuses.count("error")

    @classmethod
    def from_evaluation_result(cls, result: EvaluationResult, test_file: str | None = None) -> TestRun:
        run = cls.model_validate(
            {
                "test_file": test_file,
                "identifier": result.identifier,
                "hyperparameters": result.hyperparameters,
                "run_duration": result.duration_s or 0.0,
            }
        )
        for r in result.test_results:
            run.add_test_case(r)
        run.calculate_test_passes_and_fails()
        return run

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (results as :meth:`TestResult.to_dict`), under deepeval's camelCase keys."""
        out = self.model_dump(by_alias=True, exclude={"test_cases", "conversational_test_cases"})
        out["testCases"] = [r.to_dict() for r in self.test_cases]
        out["conversationalTestCases"] = [r.to_dict() for r in self.conversational_test_cases]
        return out

    def save(self, f: IO[str]) -> None:
        """Write :meth:`to_dict` as JSON to the open text file ``f``."""
        import json

        json.dump(self.to_dict(), f, default=str)

    @classmethod
    def load(cls, f: IO[str]) -> TestRun:
        """Read a run written by :meth:`save`."""
        import json

        data = json.load(f)
        for key in ("testCases", "conversationalTestCases"):
            data[key] = [TestResult.from_dict(r) for r in data.get(key) or []]
        return cls.model_validate(data)


class TestRunManager:
    """deepeval's test-run manager over our run state (see module docstring)."""

    __test__ = False

    def __init__(self) -> None:
        self.test_run: TestRun | None = None

    def reset(self) -> None:
        self.test_run = None

    def create_test_run(
        self,
        identifier: str | None = None,
        file_name: str | None = None,
        disable_request: bool | None = False,
    ) -> None:
        """Start a new, empty current run (``disable_request`` is accepted: nothing is ever posted)."""
        self.test_run = TestRun.model_validate({"identifier": identifier, "test_file": file_name})

    def set_test_run(self, test_run: TestRun) -> None:
        self.test_run = test_run

    def get_test_run(self, identifier: str | None = None) -> TestRun:
        """The current run, created empty when there is none."""
        if self.test_run is None:
            self.create_test_run(identifier=identifier)
        assert self.test_run is not None
        return self.test_run

    def clear_test_run(self) -> None:
        self.test_run = None

    def save_test_run(self, path: str | Path, save_under_key: str | None = None) -> None:
        """Write the current run as JSON to ``path`` (under ``{save_under_key: ...}`` when given), whole or not at
        all and never through a symbolic link (:func:`deepeval._files.write_text_atomic`)."""
        import json

        from deepeval._files import write_text_atomic

        data: Any = self.get_test_run().to_dict()
        if save_under_key:
            data = {save_under_key: data}
        write_text_atomic(path, json.dumps(data, default=str))

    def get_latest_test_run_data(self) -> TestRun | None:
        """The last finished run of this process (``evaluate()`` or a ``deepeval test run`` session), or None."""
        latest = session.latest()
        return None if latest is None else TestRun.from_evaluation_result(latest)

    def get_latest_test_run_link(self) -> None:
        """Always None: runs are not uploaded, so there is no link."""
        return None


#: the process's test-run manager (the pytest plugin adds each result to its current run)
global_test_run_manager = TestRunManager()


__all__ = [
    "MetricData",
    "TestRun",
    "TestRunManager",
    "TestRunResultDisplay",
    "global_test_run_manager",
    "invoke_test_run_end_hook",
    "log_hyperparameters",
    "on_test_run_end",
]
