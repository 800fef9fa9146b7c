"""``deepeval.test_run.test_run``: the module path deepeval 4.3.1 user code imports test-run names from
(``from deepeval.test_run.test_run import TestRunResultDisplay`` for ``DisplayConfig(display_option=...)``). The
names are those of :mod:`deepeval.test_run`."""

from __future__ import annotations

from deepeval.test_run import TestRun, TestRunManager, TestRunResultDisplay, global_test_run_manager

__all__ = ["TestRun", "TestRunManager", "TestRunResultDisplay", "global_test_run_manager"]
