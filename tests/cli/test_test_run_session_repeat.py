"""`deepeval test run -r K` and the session report's top-level ``repeat``."""

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

@pytest.mark.parametrize("i", range(2))
def test_repeated(i):
    assert_test(LLMTestCase(input=f"Who wrote play number {i}?", actual_output=f"Shakespeare wrote play {i}."),
                [AnswerRelevancyMetric()])
"""


def test_session_report_records_repeat(tmp_path: Path) -> None:
    (tmp_path / "test_repeated.py").write_text(TEST_FILE)
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
    assert {m["repeat"]["k"] for t in data["test_results"] for m in t["metrics_data"]} == {2}
    assert data["repeat"] == 2
