"""Export folders given with a leading ``~`` (DisplayConfig.results_folder / file_output_dir,
DEEPEVAL_RESULTS_FOLDER)."""

from __future__ import annotations

from pathlib import Path

import pytest

from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION


def test_tilde_results_folder_is_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (fixed): (exports): _check_output_folders expands '~' (os.path.expanduser) when it vets
    results_folder and file_output_dir, but the export writes to Path(folder) unexpanded:
    results_folder='~/deepeval-results' creates a literal './~/deepeval-results/run-*.json' (and
    './~/cases/test_case_0.json') under the current directory and nothing under $HOME;
    DEEPEVAL_RESULTS_FOLDER='~/res' with `deepeval test run` does the same. Expected the files under $HOME, as the
    pre-run check (and ENV_DIR_PATH) read it"""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    result = evaluate(
        [LLMTestCase(input="What is the capital of France?", actual_output="Paris.")],
        [AnswerRelevancyMetric()],
        display_config=DisplayConfig(
            results_folder="~/deepeval-results",
            file_output_dir="~/cases",
            print_results=False,
            show_indicator=False,
        ),
    )
    assert "export_error" not in result.extras
    assert not (work / "~").exists(), (
        f"wrote under {work / '~'}: {sorted(p.name for p in (work / '~').rglob('*'))}"
    )
    assert len(list((home / "deepeval-results").glob("*.json"))) == 1
    assert len(list((home / "deepeval-results").glob("*.html"))) == 1
    assert (home / "cases" / "test_case_0.json").is_file()
