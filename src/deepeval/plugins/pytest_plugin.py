"""pytest plugin (entry point ``pytest11``): collects the results of ``assert_test`` calls made during a session
and prints a results table at the end; ``--deepeval-repeat K`` (``deepeval test run -r K``) runs every test K times.

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

from deepeval.evaluate import session
from deepeval.evaluate.results import TestResult

PROPERTY = "deepeval_result"
#: ``deepeval.log_hyperparameters`` runs when a test file is imported, in the worker under pytest-xdist: its dict
#: travels on the reports like the results do
HYPER_PROPERTY = "deepeval_hyperparameters"


class DeepEvalCollector:
    """Per-session state and hooks (registered by :func:`pytest_configure`)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.results: list[TestResult] = []
        self.hyperparameters: dict[str, str] | None = None
        #: per result (same order): whether pytest failed the test that measured it
        self.test_failed: list[bool] = []
        self._failed_tests: set[str] = set()
        #: the signal that ended the session (pytest.exit), None otherwise
        self.stopped_by: str | None = None
        #: pytest is ending the session on a Ctrl-C (its KeyboardInterrupt report is under way)
        self._interrupted = False
        self._previous_sigterm: Any = None
        #: Ctrl-C is a second SIGTERM (the session ended on SIGTERM)
        self._ctrl_c_is_sigterm = False
        #: the session ends on Ctrl-C: SIGINT's handler is :meth:`_second_ctrl_c` (until the process exits)
        self._ended_on_ctrl_c = False
        self._more_ctrl_c = 0
        #: where our terminal summary is (said when a second Ctrl-C cuts it short); None outside it
        self._summary_stage: str | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """SIGTERM ends the session as Ctrl-C does (the tests that ended are reported and written, the stop is
        said, exit status 143): it was one test's ``SystemExit: 143`` failure, and pytest ran every other test (or,
        between tests, it killed the process with nothing written). A handler of the application's own, and an
        xdist worker, are left alone; during ``assert_test`` the run stands in for it (``_concurrency.stop_handler``):
        the measuring is cancelled first, then the session ends."""
        import signal
        import threading

        from deepeval._concurrency import note_stop, stop_handler

        if hasattr(self.config, "workerinput") or threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
            return

        @stop_handler
        def terminate(signum: int, frame: Any) -> None:
            import sys

            if self._interrupted or isinstance(sys.exc_info()[1], KeyboardInterrupt):
                # a Ctrl-C already ends the session: pytest.exit thrown into its KeyboardInterrupt report gave
                # exit 1 and a 1,100-line traceback (outside attack 7, M3); the session ends as the Ctrl-C said
                return
            if self.stopped_by is not None:
                # a second SIGTERM that reached us through a run standing in for this handler: the session is
                # already ending (a second pytest.exit thrown into pytest's interrupt report gave exit 1 and a
                # traceback; outside attack 6, B)
                return
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
            note_stop(signum)
            self.stopped_by = signal.Signals(signum).name
            # ends the session as Ctrl-C does (pytest prints its summary and ours only for its own exit codes);
            # the exit status becomes 143 in pytest_sessionfinish
            pytest.exit(f"deepeval: stopped by {self.stopped_by}")

        self._previous_sigterm = signal.signal(signal.SIGTERM, terminate)

    @pytest.hookimpl(tryfirst=True)
    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """The session ends on a Ctrl-C or on our SIGTERM (``pytest.exit``). After SIGTERM, a Ctrl-C while the
        session reports and writes its results acts as a second SIGTERM (the first signal names the stop and the
        exit status, 143): as Python's default it raised KeyboardInterrupt inside pytest's report and the
        session ended 130 under a 'stopped by SIGTERM' line (outside attack 7, L1)."""
        import signal
        import threading

        self._interrupted = True
        if not (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            return
        if self.stopped_by == "SIGTERM":
            signal.signal(signal.SIGINT, _as_a_second_sigterm)
            self._ctrl_c_is_sigterm = True
        elif self.stopped_by is None and excinfo.errisinstance(KeyboardInterrupt):
            signal.signal(signal.SIGINT, self._second_ctrl_c)
            self._ended_on_ctrl_c = True

    def _second_ctrl_c(self, signum: int, frame: Any) -> None:
        """SIGINT's handler once a session ends on Ctrl-C, until the process exits. A second Ctrl-C cuts our
        terminal summary short (one line, :meth:`pytest_terminal_summary`) and is otherwise ignored: the first
        already ended the session and names the exit status (pytest's 2); as Python's default it raised
        KeyboardInterrupt wherever it landed (our summary importing the HTML report's templates, pytest's cache or
        its interrupt report, `deepeval test run` after pytest): exit 130, a 90-line traceback and no table
        (outside attack 8, L3). A third one is Python's default again (a hung hook can still be interrupted)."""
        import signal

        self._more_ctrl_c += 1
        if self._summary_stage is not None:
            raise KeyboardInterrupt
        if self._more_ctrl_c >= 2:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            raise KeyboardInterrupt

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.stopped_by == "SIGTERM":
            import signal

            session.exitstatus = 128 + signal.SIGTERM  # 143, as a process ended by SIGTERM

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        import atexit
        import signal

        if self._previous_sigterm is not None:
            if self._interrupted and self.stopped_by is None:
                # The session ended on Ctrl-C: a SIGTERM from here until the process exits is a second of the first
                # and is ignored, as it was while the session ended (pytest's own 2 stays the exit status). With
                # SIGTERM's default put back here, a SIGTERM during pytest's cleanup after this hook (garbage
                # collection, tenths of a second) or `deepeval test run`'s on_test_run_end hook ended the process
                # 143 (outside attack 8, M3). A Python handler, not SIG_IGN, so that processes started meanwhile
                # get SIGTERM's default; at interpreter shutdown, where Python puts the default back for a Python
                # handler, SIG_IGN takes over.
                signal.signal(signal.SIGTERM, _after_ctrl_c)
                atexit.register(signal.signal, signal.SIGTERM, signal.SIG_IGN)
            else:
                signal.signal(signal.SIGTERM, self._previous_sigterm)
            self._previous_sigterm = None
        if self._ended_on_ctrl_c:
            # The session ended on Ctrl-C: a second one stays ignored until the process exits (pytest's cleanup
            # after this hook, `deepeval test run`'s on_test_run_end hook: it made the exit status 130), a third
            # is Python's default; at interpreter shutdown, where Python puts SIGINT's default action back, Ctrl-C
            # is ignored.
            if signal.getsignal(signal.SIGINT) == self._second_ctrl_c:
                atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
            self._ended_on_ctrl_c = False
        if self._ctrl_c_is_sigterm:
            # The session ended on SIGTERM, so the process was asked to end: Ctrl-C stays a second SIGTERM until
            # it exits (pytest's own cleanup after this hook collects garbage for tenths of a second, and `deepeval
            # test run` runs its on_test_run_end hook), and is ignored once the interpreter shuts down, where Python
            # puts SIGINT's default action back. A Ctrl-C in either place made the exit status 130.
            atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
            self._ctrl_c_is_sigterm = False

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(
        self, item: pytest.Item, nextitem: pytest.Item | None
    ) -> Generator[None, None, None]:
        def sink(result: TestResult) -> None:
            data = result.to_dict()
            unnamed = result.name == item.nodeid or _default_name(result.name)
            data["name"] = item.nodeid if unnamed else f"{item.nodeid} [{result.name}]"
            item.user_properties.append((PROPERTY, json.dumps(data, default=str)))

        # logged when the test file was imported (collection), so known before the test's reports are made
        hyper = session.hyperparameters()
        if hyper is not None:
            item.user_properties.append((HYPER_PROPERTY, json.dumps(hyper)))
        previous = session.set_sink(sink)
        try:
            yield
        finally:
            session.set_sink(previous)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # user_properties accumulate over setup/call/teardown; the teardown report holds them all.
        if report.failed and not hasattr(report, "wasxfail"):
            self._failed_tests.add(report.nodeid)
        if report.when != "teardown":
            return
        for key, raw in report.user_properties:
            if key == HYPER_PROPERTY:
                self._keep_hyperparameters(raw)
            if key != PROPERTY:
                continue
            try:
                result = TestResult.from_dict(json.loads(str(raw)))
            except (TypeError, ValueError):
                continue
            self.results.append(result)
            self.test_failed.append(report.nodeid in self._failed_tests)
            _current_run().add_test_case(result)  # deepeval.test_run.global_test_run_manager.get_test_run()

    def _keep_hyperparameters(self, raw: object) -> None:
        try:
            value = json.loads(str(raw))
        except ValueError:
            return
        if isinstance(value, dict):
            self.hyperparameters = {str(k): str(v) for k, v in value.items()}

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        # An xdist worker's results reach the controller on its test reports; only the controller reports.
        if not self.results or hasattr(config, "workerinput"):
            return
        self._summary_stage = "before the table and the report"
        try:
            self._summarize(terminalreporter, exitstatus, config)
        except KeyboardInterrupt:
            if not self._ended_on_ctrl_c:
                raise
            terminalreporter.write_line(
                f"deepeval: interrupted: the run was stopped after {len(self.results)} test result(s); a second "
                f"Ctrl-C cut this summary short ({self._summary_stage})",
                red=True,
            )
        finally:
            self._summary_stage = None

    def _summarize(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        from deepeval.config.test_run_options import TestRunOptions
        from deepeval.evaluate.configs import TestRunResultDisplay
        from deepeval.evaluate.display import render_results
        from deepeval.evaluate.latest import keep_latest
        from deepeval.evaluate.results import EvaluationResult

        for i, r in enumerate(self.results):
            r.index = i
        options = TestRunOptions.read()
        run = EvaluationResult(
            test_results=list(self.results),
            # deepeval test run -id NAME; "pytest" otherwise
            identifier=options.identifier or "pytest",
            hyperparameters=self.hyperparameters or session.hyperparameters(),
            cache_hits=sum(1 for r in self.results for m in r.metrics_data if m.cached),
            # DEEPEVAL_REPEAT (deepeval test run -r) applies to every assert_test, so the rows say the run's k
            repeat=max((m.repeat.k for r in self.results for m in r.metrics_data if m.repeat), default=1),
        )
        if exitstatus == pytest.ExitCode.INTERRUPTED or self.stopped_by:
            # the table and the export hold only the tests that ended before Ctrl-C / SIGTERM: say so wherever
            # they go
            by = f" by {self.stopped_by}" if self.stopped_by else ""
            run.extras["interrupted"] = (
                f"the run was stopped{by} after {len(self.results)} test result(s); tests not yet run have no row"
            )
        session.set_latest(run)  # global_test_run_manager.get_latest_test_run_data()
        _current_run().calculate_test_passes_and_fails()
        exported = self._export(run, terminalreporter)
        self._summary_stage = "; ".join(["the table was not printed", *(line for line, _ in exported)])
        keep_latest(run)  # for deepeval view (best effort)
        terminalreporter.section("deepeval results")
        from deepeval.models.resolve import embedded_notice

        notice = embedded_notice()
        if notice and config.getoption("capture", "fd") != "no":  # captured inside the test: say it here once
            terminalreporter.write_line(notice)
        width = max(80, int(getattr(getattr(terminalreporter, "_tw", None), "fullwidth", 120)))

        try:  # deepeval test run -d all|failing|passing
            option = TestRunResultDisplay(options.display)
        except ValueError:
            option = TestRunResultDisplay.ALL
        terminalreporter.write(render_results(run, option, width=width, full_reason=options.show_full_reason))
        self._summary_stage = "after the table"
        for line in self._reconcile():
            terminalreporter.write_line(line, yellow=True)
        if "interrupted" in run.extras:
            terminalreporter.write_line(f"deepeval: interrupted: {run.extras['interrupted']}", red=True)
        for line, red in exported:
            terminalreporter.write_line(line, red=red)

    def _export(self, run: Any, terminalreporter: Any) -> list[tuple[str, bool]]:
        """Write the session's JSON and HTML to ``DEEPEVAL_RESULTS_FOLDER`` when it is set; the lines to print
        (after the table: a bad folder must not hide it behind a traceback)."""
        from deepeval._safe_text import terminal
        from deepeval.config import get_settings

        folder = get_settings().get("DEEPEVAL_RESULTS_FOLDER")
        if not folder:
            return []
        import uuid

        from deepeval.evaluate.report import export_run
        from deepeval.evaluate.test_run_file import write_test_run_file

        run.run_id = uuid.uuid4().hex
        self._summary_stage = (
            f"while writing the report to {terminal(folder)}; a file there is whole or absent"
        )
        try:
            run.extras["test_run_path"] = str(write_test_run_file(run, folder))  # deepeval's documented file
            json_path, html_path = export_run(run, folder)
        except Exception as err:
            message = f"deepeval: could not write the results to {folder} ({type(err).__name__}: {err})"
            return [(terminal(message), True)]
        run.extras["json_path"], run.extras["html_path"] = str(json_path), str(html_path)
        return [(terminal(f"deepeval results written to {json_path} and {html_path}"), False)]

    def _reconcile(self) -> list[str]:
        """Why pytest's count and deepeval's differ: test cases that failed or errored in a test pytest did not
        fail (metric errors ignored with -i, a flaky test case, a test that expected the failure)."""
        quiet = [
            r
            for r, test_failed in zip(self.results, self.test_failed, strict=True)
            if r.status in ("failed", "error") and not test_failed
        ]
        if not quiet:
            return []
        errored = sum(r.status == "error" for r in quiet)
        failed = len(quiet) - errored
        parts = []
        if errored:
            parts.append(f"{errored} errored")
        if failed:
            parts.append(f"{failed} failed")
        return [
            f"deepeval: {' and '.join(parts)} test case(s) above did not fail their pytest test: metric errors "
            "are ignored with -i (DEEPEVAL_IGNORE_ERRORS), a flaky test case only warns, and a test may expect "
            "the failure (pytest.raises, xfail); pytest's own count is in its last line"
        ]


class QuietAsyncioScope:
    """Under ``deepeval test run`` only: pytest-asyncio (0.24 and later) warns at every start that ``asyncio_default_fixture_loop_scope`` is unset: a
    deprecation the user of ``deepeval test run`` did not cause and cannot act on inside our command. When the
    option is unset, this gives it the value with which pytest-asyncio keeps the behaviour it has when unset
    (``fixture-scope``, its ``_MATCH_FIXTURE_SCOPE``), so nothing changes but the warning. A value the user set is
    kept; a pytest-asyncio without that value is left as it is (the warning stays)."""

    OPTION = "asyncio_default_fixture_loop_scope"

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config: pytest.Config) -> None:
        try:
            from pytest_asyncio import plugin as asyncio_plugin
        except ImportError:
            return
        keep_current = getattr(asyncio_plugin, "_MATCH_FIXTURE_SCOPE", None)
        cache = getattr(config, "_inicache", None)
        if not isinstance(keep_current, str) or not isinstance(cache, dict):
            return
        try:
            if config.getini(self.OPTION):
                return
        except ValueError:
            return
        cache[self.OPTION] = keep_current
        # pytest-xdist workers (started later, from this process's environment) read PYTEST_ADDOPTS: the same
        # value reaches them; `deepeval test run` restores the variable when pytest returns
        from deepeval.config.environment import append_to_env

        append_to_env("PYTEST_ADDOPTS", f"-o {self.OPTION}={keep_current}")


def _as_a_second_sigterm(signum: int, frame: Any) -> None:
    """SIGINT's handler once the session ends on SIGTERM: the signal is sent again as SIGTERM, whose handler then
    does what a second SIGTERM does (ignored while the session's handler is in place, else SIGTERM's default
    action: the process ends at once, status 143)."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGTERM)


def _after_ctrl_c(signum: int, frame: Any) -> None:
    """SIGTERM's handler once the session has ended on Ctrl-C, until the process exits: the first signal named
    the stop and the exit status (pytest's 2 for an interrupted session), so the SIGTERM is ignored."""


def _current_run() -> Any:
    """The session's run in ``deepeval.test_run.global_test_run_manager`` (created on its first result)."""
    from deepeval.config.test_run_options import TestRunOptions
    from deepeval.test_run import global_test_run_manager

    if global_test_run_manager.test_run is None:
        identifier = TestRunOptions.read().identifier or "pytest"
        global_test_run_manager.create_test_run(identifier=identifier)
    return global_test_run_manager.get_test_run()


def _default_name(name: str) -> bool:
    """A name the runner gave (``test_case_N``, ``conversational_test_case_N``), not the user's."""
    return name.startswith(("test_case_", "conversational_test_case_"))


#: the option ``deepeval test run -r K`` passes: every test runs K times (as deepeval's ``-r``, which passes
#: pytest-repeat's ``--count``; the ids are pytest-repeat's: ``test_app[1-3]``, ``test_app[2-3]``...)
REPEAT_OPTION = "--deepeval-repeat"
_REPEAT_ARG = "deepeval_repeat_index"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        REPEAT_OPTION,
        dest="deepeval_repeat",
        type=int,
        default=1,
        help="deepeval: run each test this many times (deepeval test run -r).",
    )


@pytest.hookimpl(trylast=True)  # after the test's own parametrize marks: ids end in -1-3, -2-3...
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    count = int(metafunc.config.getoption("deepeval_repeat", 1) or 1)
    if count > 1:
        metafunc.fixturenames.append(_REPEAT_ARG)
        metafunc.parametrize(_REPEAT_ARG, range(count), ids=lambda i: f"{i + 1}-{count}")


def pytest_configure(config: pytest.Config) -> None:
    count = config.getoption("deepeval_repeat", 1)
    if count is not None and int(count) < 1:
        raise pytest.UsageError(f"{REPEAT_OPTION} must be >= 1, got {count}")
    if not config.pluginmanager.has_plugin("deepeval-collector"):
        config.pluginmanager.register(DeepEvalCollector(config), "deepeval-collector")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Collect the traces each test's ``@observe`` calls finish, for ``assert_test(golden=...)`` in that test
    (deepeval 4.3.1 wraps the test in one span under ``deepeval test run``; ours collects under plain pytest too,
    and leaves the traces as the app made them). Costs one context variable per test."""
    from deepeval.tracing import close_test_scope, open_test_scope

    token = open_test_scope()
    try:
        yield
    finally:
        close_test_scope(token)
