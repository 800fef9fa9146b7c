"""``assert_test`` reads the ``deepeval test run`` options (DEEPEVAL_REPEAT, DEEPEVAL_BACKEND,
DEEPEVAL_IGNORE_ERRORS...) through the settings reader, so a ``.env`` file sets them like every other key."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deepeval import assert_test
from deepeval.errors import ConfigurationError
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric


@pytest.fixture
def dotenv_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key in list(os.environ):
        if key.startswith("DEEPEVAL_") or key == "ENV_DIR_PATH":
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_repeat_from_dotenv(dotenv_dir: Path) -> None:
    (dotenv_dir / ".env").write_text("DEEPEVAL_REPEAT=3\n")
    metric = ScoreMetric(0.9)
    assert_test(LLMTestCase(input="q", actual_output="a"), [metric])
    assert len(metric.log.calls) == 3


def test_bad_repeat_from_dotenv_is_a_clear_error(dotenv_dir: Path) -> None:
    (dotenv_dir / ".env").write_text("DEEPEVAL_REPEAT=three\n")
    with pytest.raises(ConfigurationError, match="DEEPEVAL_REPEAT"):
        assert_test(LLMTestCase(input="q", actual_output="a"), [ScoreMetric(0.9)])


def test_bad_backend_from_dotenv_is_refused(dotenv_dir: Path) -> None:
    (dotenv_dir / ".env").write_text("DEEPEVAL_BACKEND=spark\n")
    with pytest.raises((ConfigurationError, ValueError), match="spark"):
        assert_test(LLMTestCase(input="q", actual_output="a"), [ScoreMetric(0.9)])


def test_ignore_errors_from_dotenv(dotenv_dir: Path) -> None:
    failing = ScoreMetric(0.9, fail_on=lambda tc: "judge down")
    with pytest.raises(RuntimeError, match="judge down"):  # the metric's own exception, as deepeval 4.3.1
        assert_test(LLMTestCase(input="q", actual_output="a"), [failing])
    (dotenv_dir / ".env").write_text("DEEPEVAL_IGNORE_ERRORS=1\n")
    assert_test(
        LLMTestCase(input="q", actual_output="a"), [ScoreMetric(0.9, fail_on=lambda tc: "judge down")]
    )


def test_process_environment_still_wins_over_dotenv(
    dotenv_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (dotenv_dir / ".env").write_text("DEEPEVAL_REPEAT=3\n")
    monkeypatch.setenv("DEEPEVAL_REPEAT", "2")
    metric = ScoreMetric(0.9)
    assert_test(LLMTestCase(input="q", actual_output="a"), [metric])
    assert len(metric.log.calls) == 2
