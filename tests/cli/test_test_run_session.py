"""`deepeval test run -c` serves rows from the cache but its session summary and report say
'cache hits 0'."""

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
