"""pytest plugin (entry point ``pytest11``): collects the results of ``assert_test`` calls made during a session
and prints a results table at the end.

Inert unless used: with no ``assert_test`` call it prints nothing, and its per-test cost is installing and removing
one callback. Results travel on each test report's ``user_properties`` (key ``deepeval_result``, a JSON string), so
they reach the controller under pytest-xdist too. When ``DEEPEVAL_RESULTS_FOLDER`` is set, the session's results
are also written there as JSON and HTML.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import pytest

from deepeval.evaluate import _session
from deepeval.evaluate.results import TestResult

PROPERTY = "deepeval_result"


class DeepEvalCollector:
    """Per-session state and hooks (registered by :func:`pytest_configure`)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.results: list[TestResult] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, None, None]:
        def sink(result: TestResult) -> None:
            data = result.to_dict()
            unnamed = result.name == item.nodeid or result.name.startswith("test_case_")
            data["name"] = item.nodeid if unnamed else f"{item.nodeid} [{result.name}]"
            item.user_properties.append((PROPERTY, json.dumps(data, default=str)))

        previous = _session.set_sink(sink)
        try:
            yield
        finally:
            _session.set_sink(previous)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # user_properties accumulate over setup/call/teardown; the teardown report holds them all.
        if report.when != "teardown":
            return
        for key, raw in report.user_properties:
            if key != PROPERTY:
                continue
            try:
                self.results.append(TestResult.from_dict(json.loads(str(raw))))
            except (TypeError, ValueError):
                continue

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        # An xdist worker's results reach the controller on its test reports; only the controller reports.
        if not self.results or hasattr(config, "workerinput"):
            return
        from deepeval.evaluate.display import render_results
        from deepeval.evaluate.results import EvaluationResult

        for i, r in enumerate(self.results):
            r.index = i
        run = EvaluationResult(
            test_results=list(self.results),
            identifier="pytest",
            cache_hits=sum(1 for r in self.results for m in r.metrics_data if m.cached),
            # DEEPEVAL_REPEAT (deepeval test run -r) applies to every assert_test, so the rows say the run's k
            repeat=max((m.repeat.k for r in self.results for m in r.metrics_data if m.repeat), default=1),
        )
        terminalreporter.section("deepeval results")
        from deepeval.models.resolve import embedded_notice

        notice = embedded_notice()
        if notice and config.getoption("capture", "fd") != "no":  # captured inside the test: say it here once
            terminalreporter.write_line(notice)
        width = max(80, int(getattr(getattr(terminalreporter, "_tw", None), "fullwidth", 120)))
        from deepeval.config import get_settings

        full = get_settings().get_bool("DEEPEVAL_SHOW_FULL_REASON")
        terminalreporter.write(render_results(run, width=width, full_reason=full))
        from deepeval.config import get_settings

        folder = get_settings().get("DEEPEVAL_RESULTS_FOLDER")
        if folder:
            import uuid

            from deepeval.evaluate.report import export_run

            run.run_id = uuid.uuid4().hex
            try:
                json_path, html_path = export_run(run, folder)
            except Exception as err:
                # the table above is complete; a bad folder (or any export failure) must not hide it behind a traceback
                terminalreporter.write_line(
                    f"deepeval: could not write the results to {folder} ({type(err).__name__}: {err})",
                    red=True,
                )
            else:
                terminalreporter.write_line(f"deepeval results written to {json_path} and {html_path}")


def pytest_configure(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("deepeval-collector"):
        config.pluginmanager.register(DeepEvalCollector(config), "deepeval-collector")
