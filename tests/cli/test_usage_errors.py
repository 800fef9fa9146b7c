"""CLI bad input: clear one-line errors and usage exit codes, never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from _support.markers import REGRESSION
from deepeval.cli.main import app

pytestmark = REGRESSION


@pytest.fixture
def cases_file(tmp_path: Any) -> str:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        json.dumps({"input": "What if these shoes don't fit?", "actual_output": "A refund."}) + "\n"
    )
    return str(path)


def test_control_unknown_metric_name_is_a_usage_error(cases_file: str) -> None:
    result = CliRunner().invoke(app, ["evaluate", cases_file, "-m", "bogus", "--no-progress"])
    assert result.exit_code == 2
    assert "unknown metric 'bogus'" in result.output


@pytest.mark.parametrize("spec", ["json:dumps", "os:path"])
def test_metric_import_path_that_is_not_a_metric_is_a_usage_error(cases_file: str, spec: str) -> None:
    result = CliRunner().invoke(app, ["evaluate", cases_file, "-m", spec, "--no-progress"])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert spec in result.output


def test_results_folder_that_is_a_file_is_a_clear_cli_error(cases_file: str, tmp_path: Any) -> None:
    blocker = tmp_path / "out"
    blocker.write_text("x")
    result = CliRunner().invoke(
        app,
        ["evaluate", cases_file, "-m", "answer_relevancy", "--results-folder", str(blocker), "--no-progress"],
    )
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert str(blocker) in result.output or "out" in result.output
