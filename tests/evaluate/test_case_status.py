"""A test case's status comes from one rule (results.case_status): a test case whose every row was skipped is
"skipped" in every summary, export and exit code, never "passed"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deepeval import evaluate
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import render_results
from deepeval.evaluate.results import MetricData, TestResult, case_status
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

DEEPEVAL = Path(sys.executable).parent / "deepeval"
QUIET = DisplayConfig(show_indicator=False, print_results=False)


def _row(status: str, flaky: bool = False) -> MetricData:
    return {
        "passed": MetricData("M", 0.5, True, 0.9, flaky=flaky),
        "failed": MetricData("M", 0.5, False, 0.1, flaky=flaky),
        "error": MetricData("M", 0.5, False, None, error="boom", flaky=flaky),
        "skipped": MetricData("M", 0.5, None, None, skipped=True, flaky=flaky),
        "scored": MetricData("M", None, None, 0.3, flaky=flaky),
    }[status]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([], "skipped"),
        (["skipped"], "skipped"),
        (["skipped", "skipped"], "skipped"),
        (["skipped", "passed"], "passed"),
        (["scored"], "passed"),
        (["passed", "failed"], "failed"),
        (["failed", "error"], "error"),
        (["passed", ("failed", True)], "passed"),  # a flaky failure never fails the test case
        (["skipped", ("error", True)], "passed"),  # only a flaky row ran, and its error does not count
    ],
)
def test_case_status_rule(rows, expected):
    data = [_row(r) if isinstance(r, str) else _row(*r) for r in rows]
    assert case_status(data) == expected
    t = TestResult("t", expected == "passed", data, False)
    assert t.status == expected and t.to_dict()["status"] == expected


def _all_skipped_run():
    needs_context = ScoreMetric(0.9, name="Ctx", requires=["retrieval_context"])
    return evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [needs_context],
        display_config=QUIET,
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(skip_on_missing_params=True),
    )


def test_evaluate_counts_an_all_skipped_test_case_as_skipped():
    result = _all_skipped_run()
    t = result.test_results[0]
    assert t.metrics_data[0].skipped and t.status == "skipped" and t.success is False
    totals = json.loads(result.to_json())["totals"]
    assert totals["test_cases_passed"] == 0 and totals["test_cases_skipped"] == 1
    assert totals["test_cases_failed"] == 0 and totals["test_cases_errored"] == 0 and totals["skipped"] == 1
    text = render_results(result, width=200)
    assert (
        "0/1 test cases passed, 0 failed, 0 errored, 1 skipped; rows: 0 passed, 0 failed, 0 errors, 1 skipped"
        in text
    )
    assert "1/1 test cases passed" not in text
    assert "SKIP" in text


def test_display_option_passing_leaves_out_skipped_test_cases():
    from deepeval.evaluate.configs import TestRunResultDisplay

    text = render_results(_all_skipped_run(), TestRunResultDisplay.PASSING, width=200)
    assert "Ctx" not in text.split("Metrics")[0]


def test_cli_evaluate_reports_skipped_and_exits_0_for_skipped_only(tmp_path):
    data = tmp_path / "cases.jsonl"
    data.write_text('{"input": "q1", "actual_output": "a"}\n')
    res = CliRunner().invoke(
        app,
        ["evaluate", str(data), "-m", "contextual_relevancy", "-s", "--no-progress", "--eval-mode", "hybrid"],
    )
    assert res.exit_code == 0, res.output
    assert "0/1 test cases passed, 0 failed, 0 errored, 1 skipped" in res.output


SKIP_FILE = textwrap.dedent(
    """
    from deepeval import assert_test
    from deepeval.metrics import ContextualRelevancyMetric
    from deepeval.test_case import LLMTestCase

    def test_no_context():
        assert_test(LLMTestCase(input="q", actual_output="a"), [ContextualRelevancyMetric(eval_mode="hybrid")])
    """
)


def test_deepeval_test_run_reports_an_all_skipped_assert_test_as_a_skipped_test(tmp_path):
    (tmp_path / "test_skip.py").write_text(SKIP_FILE)
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "COLUMNS": "160"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_skip.py", "-s", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr  # pytest: skipped is not a failure
    assert "1 skipped" in out and "passed" not in out.splitlines()[-1]
    assert "0/1 test cases passed, 0 failed, 0 errored, 1 skipped" in out
