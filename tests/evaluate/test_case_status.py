"""A test case's status comes from one rule (results.case_status), the same in every summary, export and exit code:
a test case whose every row was skipped (metrics of the other kind of test case) is "skipped", never "passed"; a
test case whose every metric was left out under skip_on_missing_params has no rows and passes, as in deepeval
4.3.1 (its rows are kept, with their reasons, in ``skipped_metrics``)."""

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
        ([], "passed"),
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


def test_evaluate_passes_a_test_case_whose_every_metric_was_left_out_for_missing_params():
    # deepeval 4.3.1 (ErrorConfig(skip_on_missing_params=True), the metric raising MissingTestCaseParamsError):
    # metrics_data == [] and success True
    result = _all_skipped_run()
    t = result.test_results[0]
    assert t.metrics_data == [] and t.status == "passed" and t.success is True
    (left,) = t.skipped_metrics or []
    assert (
        left.name == "Ctx"
        and left.skipped
        and left.reason.startswith("skipped: Ctx needs 'retrieval_context'")
    )
    totals = json.loads(result.to_json())["totals"]
    assert totals["test_cases_passed"] == 1 and totals["test_cases_skipped"] == 0
    assert totals["metric_rows"] == 0 and totals["skipped_metrics"] == 1
    text = render_results(result, width=200)
    assert (
        "1/1 test cases passed, 0 failed, 0 errored, 0 skipped; rows: 0 passed, 0 failed, 0 errors, 0 skipped, "
        "1 left out (missing parameters)" in text
    )
    assert "SKIP" in text and "Ctx" in text  # the left-out metric is listed with its reason
    from deepeval.evaluate.report import render_html

    html = render_html(result)
    assert '<details class="row row-skipped" data-status="skipped" data-metric="Ctx"' in html


def test_a_metric_of_the_other_kind_only_is_refused_as_deepeval_does():
    """deepeval 4.3.1 raises ValueError for a metric that does not fit the test cases (it used to be a skipped row
    and a test case that could not fail)."""
    from ._fakes import ConvMetric

    with pytest.raises(ValueError, match=r"^Metric Conv is not a valid metric for LLMTestCase\."):
        evaluate(
            [LLMTestCase(input="q", actual_output="a")],
            [ConvMetric()],
            display_config=QUIET,
            cache_config=CacheConfig(write_cache=False),
        )


def test_cli_evaluate_passes_a_test_case_whose_metrics_were_all_left_out(tmp_path):
    data = tmp_path / "cases.jsonl"
    data.write_text('{"input": "q1", "actual_output": "a"}\n')
    res = CliRunner().invoke(
        app,
        ["evaluate", str(data), "-m", "contextual_relevancy", "-s", "--no-progress", "--eval-mode", "hybrid"],
    )
    assert res.exit_code == 0, res.output
    assert "1/1 test cases passed, 0 failed, 0 errored, 0 skipped" in res.output


SKIP_FILE = textwrap.dedent(
    """
    from deepeval import assert_test
    from deepeval.metrics import ContextualRelevancyMetric
    from deepeval.test_case import LLMTestCase

    def test_no_context():
        assert_test(LLMTestCase(input="q", actual_output="a"), [ContextualRelevancyMetric(eval_mode="hybrid")])
    """
)


def test_deepeval_test_run_passes_an_assert_test_whose_metrics_were_all_left_out(tmp_path):
    # deepeval 4.3.1: `deepeval test run -s` on an assert_test whose only metric lacks a parameter: "1 passed"
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
    assert proc.returncode == 0, out + proc.stderr
    assert "1 passed" in out.splitlines()[-1]
    assert "1/1 test cases passed, 0 failed, 0 errored, 0 skipped" in out
