"""The one stderr line that announces the embedded judge must be true for the configuration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _support.markers import REGRESSION

pytestmark = REGRESSION

SCRIPT = """
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase
m = AnswerRelevancyMetric(eval_mode="system_one", include_reason=False)
m.measure(LLMTestCase(input="What is the capital of France?", actual_output="Paris is the capital of France."))
print(m.evaluation_model)
"""


def _measure_in_a_subprocess(tmp_path: object, **env_vars: str) -> subprocess.CompletedProcess[str]:
    """SCRIPT in a fresh interpreter with no settings but ``env_vars`` (and no dotenv files)."""
    env = {
        **{
            k: v for k, v in os.environ.items() if not k.startswith(("DEEPEVAL_", "TYPESAFE_", "LOCAL_MODEL"))
        },
        "DEEPEVAL_DISABLE_DOTENV": "1",
        **env_vars,
    }
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=str(tmp_path),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-600:]
    return proc


def test_embedded_notice_does_not_claim_no_judge_when_an_llm_is_configured(tmp_path: object) -> None:
    proc = _measure_in_a_subprocess(
        tmp_path, OPENAI_API_KEY="sk-test-notice", OPENAI_BASE_URL="http://127.0.0.1:9/v1"
    )
    assert "embedded" in proc.stdout  # the embedded judge did run
    notice = [line for line in proc.stderr.splitlines() if "embedded offline judge" in line]
    assert len(notice) == 1
    assert "no judge configured" not in notice[0]


def test_embedded_notice_says_offline_when_the_settings_judges_are_switched_off(tmp_path: object) -> None:
    proc = _measure_in_a_subprocess(
        tmp_path, DEEPEVAL_OFFLINE="1", OPENAI_API_KEY="sk-test-notice", TYPESAFE_API_KEY="ts-test-notice"
    )
    notice = [line for line in proc.stderr.splitlines() if "embedded offline judge" in line]
    assert len(notice) == 1 and notice[0].startswith(
        "deepeval: offline (--offline, or DEEPEVAL_OFFLINE): using the embedded"
    )
    assert "set OPENAI_API_KEY" not in notice[0] and "no judge configured" not in notice[0]
    assert "sk-test-notice" not in proc.stderr + proc.stdout


TEST_FILE = """
from deepeval import assert_test
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

def test_one():
    assert_test(LLMTestCase(input="Who wrote Hamlet?", actual_output="Shakespeare wrote Hamlet."),
                [AnswerRelevancyMetric()])
"""


def test_test_run_shows_the_embedded_judge_notice_once(tmp_path: Path) -> None:
    (tmp_path / "test_one.py").write_text(TEST_FILE)
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DEEPEVAL_", "OPENAI_", "TYPESAFE_", "LOCAL_MODEL"))
        },
        "DEEPEVAL_DISABLE_DOTENV": "1",
        "COLUMNS": "200",
    }
    deepeval = Path(sys.executable).parent / "deepeval"
    proc = subprocess.run(
        [str(deepeval), "test", "run", "test_one.py", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-800:]
    lines = [
        ln for ln in (proc.stdout + proc.stderr).splitlines() if "using the embedded offline judge" in ln
    ]
    assert len(lines) == 1
