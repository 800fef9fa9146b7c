"""``deepeval view [RUN]``: opens the latest (or a named) run's HTML report, prints its path where no browser
exists, and prints the failing test cases in full with --failing."""

from __future__ import annotations

import time
import webbrowser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deepeval import evaluate
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.evaluate.latest import KEEP_RUNS, kept_runs
from deepeval.test_case import LLMTestCase
from evaluate._fakes import ScoreMetric


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs a browser was asked to open (one that opens them)."""
    opened: list[str] = []

    def fake_open(url: str, *args: object, **kwargs: object) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(webbrowser, "open", fake_open)
    return opened


def _run(name: str = "r", **display: object):  # type: ignore[no-untyped-def]
    return evaluate(
        [
            LLMTestCase(input="q", actual_output="a", name="case-a"),
            LLMTestCase(input="q2", actual_output="b"),
        ],
        [ScoreMetric(lambda tc, n: 0.9 if tc.name == "case-a" else 0.1)],
        display_config=DisplayConfig(show_indicator=False, **display),  # type: ignore[arg-type]
        cache_config=CacheConfig(write_cache=False),
        identifier=name,
    )


def test_no_run_yet_is_exit_2_with_what_to_do(isolated: Path) -> None:
    result = CliRunner().invoke(app, ["view"])
    assert result.exit_code == 2
    assert "no run kept in .deepeval/runs yet" in result.output and "deepeval view RUN.json" in result.output


def test_latest_run_without_a_browser_prints_the_report_path(
    isolated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: False)  # a server: no browser
    run = _run()
    result = CliRunner().invoke(app, ["view"])
    assert result.exit_code == 0, result.output
    line = result.output.strip()
    assert line.startswith("report: ") and line.endswith(" (no browser found here: open this file)")
    path = Path(line.removeprefix("report: ").split(" (")[0])
    assert path.is_file() and run.run_id in path.read_text(encoding="utf-8")  # rendered from the kept JSON


def test_latest_run_opens_its_exported_report(isolated: Path, browser: list[str]) -> None:
    run = _run(results_folder=str(isolated / "out"))
    result = CliRunner().invoke(app, ["view"])
    assert result.exit_code == 0, result.output
    html = Path(run.extras["html_path"]).resolve()
    assert browser == [html.as_uri()]
    assert result.output.strip() == f"report: {html} (opened in the browser)"


def test_a_named_run_by_file_folder_or_id(
    isolated: Path, browser: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(isolated / "out"))
    first = _run("first")
    time.sleep(0.05)
    second = _run("second")
    runner = CliRunner()
    assert runner.invoke(app, ["view", first.extras["json_path"]]).exit_code == 0
    assert runner.invoke(app, ["view", first.run_id[:8]]).exit_code == 0
    assert runner.invoke(app, ["view", str(isolated / "out")]).exit_code == 0
    assert browser == [
        Path(first.extras["html_path"]).resolve().as_uri(),
        Path(first.extras["html_path"]).resolve().as_uri(),
        Path(second.extras["html_path"]).resolve().as_uri(),  # a folder: its newest run
    ]
    missing = runner.invoke(app, ["view", "no-such-run"])
    assert missing.exit_code == 2 and "no-such-run: no such file" in missing.output


def test_no_open_prints_the_path_only(isolated: Path, browser: list[str]) -> None:
    run = _run(results_folder=str(isolated / "out"))
    result = CliRunner().invoke(app, ["view", "--no-open"])
    assert browser == [] and result.output.strip() == f"report: {Path(run.extras['html_path']).resolve()}"


def test_failing_prints_only_failing_cases(isolated: Path) -> None:
    _run(print_results=False, results_folder=str(isolated / "out"))
    result = CliRunner().invoke(app, ["view", "--failing"])
    assert result.exit_code == 0, result.output
    assert "FAIL test_case_1" in result.output and "case-a" not in result.output


def test_kept_runs_are_capped(isolated: Path) -> None:
    for i in range(KEEP_RUNS + 3):
        _run(f"r{i}", print_results=True)
    runs = kept_runs()
    assert len(runs) == KEEP_RUNS and runs[-1].name.startswith(f"r{KEEP_RUNS + 2}-")


def test_a_stray_deepeval_file_does_not_stop_a_run(isolated: Path) -> None:
    (isolated / ".deepeval").write_text("not a folder")
    run = _run(print_results=True)
    assert "latest_path" not in run.extras and len(run.test_results) == 2
