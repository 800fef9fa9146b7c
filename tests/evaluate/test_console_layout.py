"""The console at 80 and 160 columns: a list below 120 columns (a passing test case on one line, a failing row's
reason at nearly the full width, a test case's skipped rows on one line), a table from there; the summary ends with
the one command that prints the failing test cases in full, and that command does."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from deepeval import evaluate
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import print_renderables, results_renderables
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

REASON = (
    "The score is {s:.2f}: the output answers the question about shipping times but adds an unrelated remark "
    "about store hours. " + "More detail. " * 20 + "FINAL-SENTENCE"
)


class _Reasoned(ScoreMetric):
    def _finish(self, tc, score):  # type: ignore[no-untyped-def]
        out = super()._finish(tc, score)
        self.reason = REASON.format(s=self.score or 0)
        return out


def _run(n: int = 200, print_results: bool = False, **display: object):  # type: ignore[no-untyped-def]
    cases = [
        LLMTestCase(
            input=f"question {i}",
            actual_output=f"answer {i}",
            name=f"shipping-question-{i:03d}",
            retrieval_context=None if i % 10 == 0 else ["ctx"],
        )
        for i in range(n)
    ]
    ar = _Reasoned(lambda tc, k: 0.3 if int(tc.name[-3:]) % 7 == 0 else 0.9, name="Answer Relevancy")
    cr = _Reasoned(0.8, name="Contextual Relevancy", requires=["retrieval_context"])
    cx = _Reasoned(0.8, name="Context Precision", requires=["retrieval_context"])
    return evaluate(
        cases,
        [ar, cr, cx],
        display_config=DisplayConfig(show_indicator=False, print_results=print_results, **display),  # type: ignore[arg-type]
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True, skip_on_missing_params=True),
    )


def _text(result, width: int) -> str:  # type: ignore[no-untyped-def]
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    print_renderables(console, results_renderables(result))
    return buf.getvalue()


def test_a_200_case_run_at_80_columns_is_short_and_its_reasons_readable() -> None:
    text = _text(_run(), 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    # 200 test cases x 3 metrics: 2,300+ lines as a 7-column table at 80 columns (reasons 13 wide); now one line
    # per passing test case, 3 + 2 per failing one, the excerpts of the first 20 failing ones, the summary
    assert len(lines) < 560, len(lines)
    first_pass = next(line for line in lines if "shipping-question-001" in line)
    assert first_pass.startswith(
        "PASS  shipping-question-001  Answer Relevancy 0.900 · Contextual Relevancy 0.8"
    )
    assert first_pass.endswith("…") and len(first_pass) == 80  # cut to the line
    assert "PASS  shipping-question-010  Answer Relevancy 0.900 · 2 skipped" in lines
    # a failing row's reason starts on its own line at nearly the full width
    at = lines.index("FAIL  shipping-question-007")
    assert lines[at + 1].split() == ["Answer", "Relevancy", "0.300", "0.50", "FAIL"]
    assert lines[at + 2].startswith("    The score is 0.30: the output answers") and len(lines[at + 2]) >= 72


def test_skipped_rows_of_a_test_case_share_one_line() -> None:
    text = _text(_run(), 80)
    lines = text.splitlines()
    at = lines.index("FAIL  shipping-question-070")
    assert lines[at + 4].startswith("  SKIP  Contextual Relevancy, Context Precision: skipped: ")
    assert not lines[at + 5].startswith("  ")  # the next test case: two skipped rows took one line
    table = _text(_run(), 160).split("Judge:")[0]
    assert table.count("SKIP") == 20  # one table row for the skipped rows of each of the 20 test cases


def test_at_160_columns_a_table_with_a_wide_reason_column() -> None:
    text = _text(_run(20), 160)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 160
    header = next(line for line in lines if "Reason / error" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == [
        "Test case",
        "Metric",
        "Score",
        "Thr",
        "Status",
        "Reason / error",
    ]  # one judge: no judge column (it is named once under the table)
    reason_column = header.split("┃")[-2]
    assert len(reason_column) >= 60
    assert "Judge: scripted-judge" in text


def test_summary_ends_with_the_command_that_prints_failing_cases_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run(30, results_folder=str(tmp_path / "runs"))
    json_path = result.extras["json_path"]
    last = _text(result, 400).rstrip().splitlines()[-1]
    assert last == f"Failing test cases in full: deepeval view --failing {json_path}"
    # at 80 columns the command stays one line that can be copied (it was broken across lines: issue 42)
    assert _text(result, 80).rstrip().splitlines()[-1] == last
    assert "FINAL-SENTENCE" not in _text(result, 80)  # cut in the console
    shown = CliRunner().invoke(app, ["view", "--failing", json_path])
    assert shown.exit_code == 0, shown.output
    flat = " ".join(shown.output.split())
    assert flat.count("FINAL-SENTENCE") == 5  # the 5 failing test cases of 30, each reason whole
    assert "FAIL shipping-question-028" in flat and "shipping-question-001" not in flat


def test_without_an_export_the_command_names_the_kept_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run(15, print_results=True)
    capsys.readouterr()
    assert Path(result.extras["latest_path"]).parent == (tmp_path / ".deepeval" / "runs").resolve()
    command = f"deepeval view --failing {result.run_id[:8]}"
    assert _text(result, 80).rstrip().splitlines()[-1] == f"Failing test cases in full: {command}"
    shown = CliRunner().invoke(app, command.split()[1:])
    assert shown.exit_code == 0, shown.output
    assert " ".join(shown.output.split()).count("FINAL-SENTENCE") == 3  # test cases 0, 7 and 14


def test_no_failing_test_case_no_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [ScoreMetric(0.9)],
        display_config=DisplayConfig(show_indicator=False, print_results=True),
        cache_config=CacheConfig(write_cache=False),
    )
    assert "deepeval view" not in _text(result, 80)
