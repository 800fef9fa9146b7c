"""`deepeval test run`: the session summary and report (cache hits, repeat, an unwritable results folder) and
the targets a pytest user types."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _support.markers import REGRESSION

pytestmark = REGRESSION


DEEPEVAL = Path(sys.executable).parent / "deepeval"

TEST_FILE = """
import pytest
from deepeval import assert_test
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

@pytest.mark.parametrize("i", range(3))
def test_cached(i):
    assert_test(LLMTestCase(input=f"Who wrote play number {i}?", actual_output=f"Shakespeare wrote play {i}."),
                [AnswerRelevancyMetric()])
"""


def test_session_report_counts_cache_hits(tmp_path: Path) -> None:
    (tmp_path / "test_cached.py").write_text(TEST_FILE)
    results = tmp_path / "results"
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "DEEPEVAL_RESULTS_FOLDER": str(results),
        "DEEPEVAL_CACHE_PATH": str(tmp_path / "cache.sqlite"),
        "COLUMNS": "160",
    }
    cmd = [str(DEEPEVAL), "test", "run", "test_cached.py", "-c", "-p", "no:cacheprovider"]
    for _ in range(2):
        proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-800:]
    reports = sorted(results.glob("pytest-*.json"))
    assert len(reports) == 2
    second = json.loads(reports[-1].read_text(encoding="utf-8"))
    cached_rows = sum(m["cached"] for t in second["test_results"] for m in t["metrics_data"])
    assert cached_rows == 3
    assert second["totals"]["cache_hits"] == 3
    assert "cache hits 3" in proc.stdout


# ----------------------------------------------------------------------------------------------------------
# `deepeval test run -r K` and the session report's top-level ``repeat``.


REPEATED_TEST_FILE = """
import pytest
from deepeval import assert_test
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

@pytest.mark.parametrize("i", range(2))
def test_repeated(i):
    assert_test(LLMTestCase(input=f"Who wrote play number {i}?", actual_output=f"Shakespeare wrote play {i}."),
                [AnswerRelevancyMetric()])
"""


def test_session_report_records_each_repetition_of_a_test(tmp_path: Path) -> None:
    (tmp_path / "test_repeated.py").write_text(REPEATED_TEST_FILE)
    results = tmp_path / "results"
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "DEEPEVAL_RESULTS_FOLDER": str(results),
        "COLUMNS": "160",
    }
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_repeated.py", "-r", "2", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-800:]
    (report,) = sorted(results.glob("pytest-*.json"))
    data = json.loads(report.read_text(encoding="utf-8"))
    # -r 2 runs each test twice (as deepeval): four results, each measured once
    assert [t["name"] for t in data["test_results"]] == [
        "test_repeated.py::test_repeated[0-1-2]",
        "test_repeated.py::test_repeated[0-2-2]",
        "test_repeated.py::test_repeated[1-1-2]",
        "test_repeated.py::test_repeated[1-2-2]",
    ]
    assert {m["repeat"] for t in data["test_results"] for m in t["metrics_data"]} == {None}
    assert data["repeat"] == 1


# ----------------------------------------------------------------------------------------------------------
# An unwritable DEEPEVAL_RESULTS_FOLDER under `deepeval test run` / the pytest plugin.


PASSING_TEST_FILE = """
from deepeval import assert_test
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

def test_one():
    assert_test(LLMTestCase(input="Who wrote Hamlet?", actual_output="Shakespeare wrote Hamlet."),
                [AnswerRelevancyMetric()])
"""


def test_unwritable_results_folder_does_not_fail_a_passing_session(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text(PASSING_TEST_FILE)
    (tmp_path / "afile").write_text("not a folder")
    env = {
        **os.environ,
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "DEEPEVAL_RESULTS_FOLDER": "afile/sub",
        "COLUMNS": "160",
    }
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_one.py", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    out = proc.stdout + proc.stderr
    assert "1 passed" in out
    assert "Traceback" not in out, out[-800:]
    assert proc.returncode == 0


# ----------------------------------------------------------------------------------------------------------
# `deepeval test run` with the targets a pytest user types.


def test_test_run_accepts_a_pytest_node_id(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text(
        "def test_one():\n    assert 1 + 1 == 2\n\ndef test_two():\n    assert False\n"
    )
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_plain.py::test_one", "-p", "no:cacheprovider"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-600:]


# ----------------------------------------------------------------------------------------------------------
# A green pytest run whose deepeval block counts failed or errored test cases says why the counts differ, and
# `deepeval test run` does not print pytest-asyncio's loop-scope deprecation warning (which the user did not cause).

GREEN_RUN = """
import pytest
from deepeval import assert_test
from deepeval.metrics.base_metric import BaseMetric
from deepeval.test_case import LLMTestCase


class Fixed(BaseMetric):
    def __init__(self, score, error=False):
        self.threshold, self.fixed, self.error_out = 0.5, score, error

    @property
    def __name__(self):
        return "Fixed"

    async def a_measure(self, tc, *a, **k):
        return self.measure(tc)

    def measure(self, tc, *a, **k):
        if self.error_out:
            raise RuntimeError("judge down")
        self.score, self.reason = self.fixed, "fixed"
        self.success = self.score >= self.threshold
        return self.score


def test_pass():
    assert_test(LLMTestCase(input="q", actual_output="a"), [Fixed(0.9)])


def test_expected_failure():
    with pytest.raises(AssertionError):
        assert_test(LLMTestCase(input="q", actual_output="b"), [Fixed(0.1)])


def test_flaky():
    assert_test(LLMTestCase(input="q", actual_output="c", flaky=True), [Fixed(0.1)])


def test_ignored_error():
    assert_test(LLMTestCase(input="q", actual_output="d"), [Fixed(0.9, error=True)])
"""

ASYNCIO_WARNING = 'The configuration option "asyncio_default_fixture_loop_scope" is unset'


def _test_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "COLUMNS": "160"}
    cmd = [str(DEEPEVAL), "test", "run", "test_green.py", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)


def test_a_green_run_says_why_deepeval_counts_failures(tmp_path: Path) -> None:
    (tmp_path / "test_green.py").write_text(GREEN_RUN)
    proc = _test_run(tmp_path, "-i")
    out = proc.stdout
    assert proc.returncode == 0, (out + proc.stderr)[-2000:]
    assert "4 passed" in out.splitlines()[-1]
    block = out.split("deepeval results", 1)[1]
    assert "1/4 test cases passed, 2 failed, 1 errored" in block
    assert (
        "deepeval: 1 errored and 2 failed test case(s) above did not fail their pytest test: metric errors are "
        "ignored with -i (DEEPEVAL_IGNORE_ERRORS), a flaky test case only warns, and a test may expect the "
        "failure (pytest.raises, xfail); pytest's own count is in its last line"
    ) in block


def test_a_red_run_needs_no_explanation(tmp_path: Path) -> None:
    (tmp_path / "test_green.py").write_text(GREEN_RUN)
    proc = _test_run(tmp_path)  # without -i the errored test case fails its test
    assert proc.returncode == 1
    block = proc.stdout.split("deepeval results", 1)[1]
    assert "deepeval: 2 failed test case(s) above did not fail their pytest test" in block
    assert "errored and" not in block


def test_no_pytest_asyncio_loop_scope_warning(tmp_path: Path) -> None:
    pytest_asyncio = __import__("importlib").util.find_spec("pytest_asyncio")
    if pytest_asyncio is None:
        return  # nothing to warn
    (tmp_path / "test_green.py").write_text(GREEN_RUN)
    for args in ((), ("-n", "2")):
        proc = _test_run(tmp_path, "-i", *args)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-2000:]
        assert ASYNCIO_WARNING not in proc.stdout + proc.stderr
    # a value the user set is theirs
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_default_fixture_loop_scope = module\n")
    proc = _test_run(tmp_path, "-i")
    assert "asyncio_default_fixture_loop_scope=module" in proc.stdout
