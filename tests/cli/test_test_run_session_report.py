"""An unwritable DEEPEVAL_RESULTS_FOLDER under `deepeval test run` / the pytest plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _support.markers import REGRESSION

pytestmark = REGRESSION

DEEPEVAL = Path(sys.executable).parent / "deepeval"

TEST_FILE = """
from deepeval import assert_test
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

def test_one():
    assert_test(LLMTestCase(input="Who wrote Hamlet?", actual_output="Shakespeare wrote Hamlet."),
                [AnswerRelevancyMetric()])
"""


def test_unwritable_results_folder_does_not_fail_a_passing_session(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text(TEST_FILE)
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
