"""EvaluationResult.to_pandas(), to_csv() / `deepeval evaluate --csv`, the console table at 80 columns and the
notebook representations."""

from __future__ import annotations

import builtins
import csv
import io
import sys
import warnings

import pytest
from rich.console import Console
from typer.testing import CliRunner

from deepeval import evaluate
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import results_renderables
from deepeval.evaluate.results import ROW_COLUMNS
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

LONG_JUDGE = "a-rather-long-judge-name/with-version-2026-11 (hybrid, embedded System One)"
LONG_REASON = "The output talks about shipping times. " * 12 + "FINAL-SENTENCE"


def _result():
    cases = [
        LLMTestCase(
            input="What is the return policy for shoes bought online?",
            actual_output="Thirty days.",
            name="shoes",
        ),
        LLMTestCase(input="q2 " + "x" * 300, actual_output="y" * 300),
        LLMTestCase(input="q3", actual_output="z"),
    ]
    acc = ScoreMetric(
        lambda tc, n: {"shoes": 0.9}.get(tc.name or "", 0.2), name="Accuracy", judge=LONG_JUDGE, cost=0.01
    )
    rel = ScoreMetric(
        0.8,
        name="Relevance",
        judge=LONG_JUDGE,
        fail_on=lambda tc: "judge returned garbage" if tc.input == "q3" else None,
    )
    result = evaluate(
        cases,
        [acc, rel],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    result.test_results[1].metrics_data[0].reason = LONG_REASON
    return result


def test_to_pandas_has_one_row_per_test_case_and_metric():
    df = _result().to_pandas()
    assert list(df.columns) == list(ROW_COLUMNS)
    assert len(df) == 6
    assert list(df["test_case"]) == [
        "shoes",
        "shoes",
        "test_case_1",
        "test_case_1",
        "test_case_2",
        "test_case_2",
    ]
    assert list(df["metric"]) == ["Accuracy", "Relevance"] * 3
    assert list(df["status"]) == ["passed", "passed", "failed", "passed", "failed", "error"]
    assert list(df["test_case_status"]) == ["passed", "passed", "failed", "failed", "error", "error"]
    assert df["score"].iloc[0] == pytest.approx(0.9) and df["threshold"].iloc[0] == pytest.approx(0.5)
    assert df["error"].iloc[5] == "RuntimeError: judge returned garbage"
    assert df["evaluation_model"].iloc[0] == LONG_JUDGE
    assert df["evaluation_cost"].iloc[0] == pytest.approx(0.01)


def test_to_pandas_without_pandas_names_the_install(monkeypatch):
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "pandas", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ImportError, match=r'pip install "pandas>=2\.0"'):
        _result().to_pandas()


def test_to_csv_writes_the_same_columns(tmp_path):
    result = _result()
    n = result.to_csv(tmp_path / "sub" / "rows.csv")
    rows = list(csv.DictReader(open(tmp_path / "sub" / "rows.csv", encoding="utf-8")))
    assert n == len(rows) == 6
    assert list(rows[0]) == list(ROW_COLUMNS)
    assert rows[2]["test_case"] == "test_case_1" and rows[2]["status"] == "failed"
    assert float(rows[2]["score"]) == pytest.approx(0.2) and rows[2]["reason"] == LONG_REASON
    assert rows[5]["error"] == "RuntimeError: judge returned garbage" and rows[5]["score"] == ""
    # the row's error kind is a column too (a user metric raised: user_code), empty where there is no error
    assert rows[5]["error_kind"] == "user_code" and rows[2]["error_kind"] == ""


def test_cli_evaluate_csv(tmp_path, monkeypatch):
    (tmp_path / "wc_metrics.py").write_text(
        "from deepeval.metrics.base_metric import BaseMetric\n"
        "class WC(BaseMetric):\n"
        "    def __init__(self, threshold=0.5):\n        self.threshold = threshold\n"
        "    async def a_measure(self, tc, *a, **k):\n        return self.measure(tc)\n"
        "    def measure(self, tc, *a, **k):\n"
        "        self.score = min(1.0, len(tc.actual_output.split()) / 4)\n        self.reason = 'words'\n"
        "        return self.score\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    data = tmp_path / "cases.jsonl"
    data.write_text(
        '{"input": "q1", "actual_output": "one two three four"}\n{"input": "q2", "actual_output": "one"}\n'
    )
    out = tmp_path / "rows.csv"
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", "wc_metrics:WC", "--no-progress", "--csv", str(out)]
    )
    assert res.exit_code == 1, res.output
    rows = list(csv.DictReader(open(out, encoding="utf-8")))
    assert [(r["test_case"], r["metric"], r["score"], r["status"]) for r in rows] == [
        ("test_case_0", "WC", "1.0", "passed"),
        ("test_case_1", "WC", "0.25", "failed"),
    ]
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", "wc_metrics:WC", "--no-progress", "--csv", str(tmp_path)]
    )
    # refused before anything is measured (a folder cannot take the CSV)
    assert res.exit_code == 2 and "--csv" in res.output and "is a directory" in res.output
    assert "test cases passed" not in res.output


def _console_text(result, width: int = 80, full_reason: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    for r in results_renderables(result, full_reason=full_reason):
        console.print(r)
    return buf.getvalue()


def test_console_at_80_columns_names_the_one_judge_once_and_shows_failing_excerpts():
    text = _console_text(_result())
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    flat = " ".join(text.split())  # long lines wrap at 80 columns
    assert flat.count(LONG_JUDGE) == 1  # named once, under the rows
    assert f"Judge: {LONG_JUDGE}" in flat
    rows = text.split("Judge:")[0]
    assert "J1" not in rows  # one judge: no judge column to fill
    # a list at 80 columns: each test case on its line, each row on its line under it
    assert "FAIL  test_case_1" in lines and "ERROR test_case_2" in lines
    assert any(line.startswith("PASS  shoes  Accuracy 0.900 · Relevance 0.") for line in lines)  # one line
    details = text.split("Failing test cases", 1)[1]
    assert "FAIL test_case_1" in details and "ERROR test_case_2" in details and "shoes" not in details
    assert "input: q2 xxxx" in " ".join(details.split()) and "x…" in details  # an excerpt, cut
    assert "judge returned garbage" in " ".join(details.split())
    assert "FINAL-SENTENCE" not in text  # the reason is cut without show_full_reason


def test_console_with_two_judges_names_each_once_under_a_judge_column():
    result = _result()
    for t in result.test_results:
        t.metrics_data[1].evaluation_model = "judge-two"
    text = _console_text(result, width=160)
    assert "Judges:\n  J1 = " + LONG_JUDGE in text and "J2 = judge-two" in text
    table = text.split("Judges:")[0]
    assert "Judge" in table.splitlines()[2]  # the header has a judge column
    assert table.count("J1") == 3 and table.count("J2") == 3


def test_console_full_reason_on_demand():
    text = _console_text(_result(), full_reason=True)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "FINAL-SENTENCE" in text


def test_display_config_show_full_reason_prints_the_whole_reason(capsys):
    evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [_LongReason(0.1)],
        display_config=DisplayConfig(show_indicator=False, show_full_reason=True),
        cache_config=CacheConfig(write_cache=False),
    )
    assert "FINAL-SENTENCE" in capsys.readouterr().out


class _LongReason(ScoreMetric):
    def _finish(self, tc, score):
        out = super()._finish(tc, score)
        self.reason = LONG_REASON
        return out


def test_repr_and_repr_html():
    result = _result()
    text = repr(result)
    assert text.startswith(
        "EvaluationResult(3 test cases: 1 passed, 1 failed, 1 errored, 0 skipped; 6 metric rows"
    )
    html = result._repr_html_()
    assert html.count("<tr>") == 7 and "shoes" in html and "judge returned garbage" in html


def test_evaluate_in_jupyter_without_ipywidgets_warns_nothing(monkeypatch):
    class ZMQInteractiveShell:  # what rich looks for to detect a notebook
        pass

    monkeypatch.setattr(builtins, "get_ipython", lambda: ZMQInteractiveShell(), raising=False)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # not installed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = evaluate(
            [LLMTestCase(input="q", actual_output="a")],
            [ScoreMetric(0.9)],
            display_config=DisplayConfig(show_indicator=True, print_results=False),
            cache_config=CacheConfig(write_cache=False),
        )
    assert result.test_results[0].status == "passed"


FORMULAS = ['=HYPERLINK("http://x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "'=kept"]


@pytest.mark.regression
def test_to_csv_neutralises_formula_cells_and_keeps_numbers(tmp_path):
    """OWASP's rule (deepeval._csv_cells): a text cell starting with = + - @ TAB CR gets one leading quote."""
    result = _result()
    rows = result.test_results[0].metrics_data
    result.test_results[0].name = FORMULAS[0]
    rows[0].reason, rows[1].reason = FORMULAS[2], FORMULAS[3]
    rows[0].evaluation_model = FORMULAS[1]
    result.test_results[1].name = FORMULAS[4]
    result.test_results[2].name = FORMULAS[6]
    result.test_results[1].metrics_data[0].reason = FORMULAS[5]
    result.test_results[1].metrics_data[0].score = -0.5  # a number stays a number
    result.to_csv(tmp_path / "rows.csv")
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as f:
        got = list(csv.DictReader(f))
    assert [r["test_case"] for r in got] == ["'" + FORMULAS[0]] * 2 + ["'\t=1"] * 2 + ["''=kept"] * 2
    assert [got[0]["reason"], got[1]["reason"], got[2]["reason"]] == [
        "'-2+3",
        "'@SUM(A1)",
        "\\r=1",
    ]  # CR shown as \\r
    assert got[0]["evaluation_model"] == "'" + FORMULAS[1]
    assert got[2]["score"] == "-0.5" and got[0]["metric"] == "Accuracy"


@pytest.mark.regression
def test_to_csv_quotes_a_bare_carriage_return_so_one_row_stays_one_row(tmp_path):
    result = _result()
    result.test_results[0].name = "shoes\r=injected"
    result.test_results[1].name = "two\nlines"
    result.to_csv(tmp_path / "rows.csv")
    raw = (tmp_path / "rows.csv").read_bytes()
    # a CR is shown as the visible escape \\r (as on the console: issue 42 item 10), LF keeps its quoted cell
    assert b"shoes\\r=injected" in raw and b"\r" not in raw and b'"two\nlines"' in raw
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as f:
        got = list(csv.DictReader(f))
    assert len(got) == 6
    assert [r["test_case"] for r in got[:4]] == ["shoes\\r=injected"] * 2 + ["two\nlines"] * 2


@pytest.mark.regression
def test_cli_evaluate_csv_neutralises_the_name_and_reason(tmp_path, monkeypatch):
    (tmp_path / "echo_metrics.py").write_text(
        "from deepeval.metrics.base_metric import BaseMetric\n"
        "class Echo(BaseMetric):\n"
        "    def __init__(self, threshold=0.5):\n        self.threshold = threshold\n"
        "    async def a_measure(self, tc, *a, **k):\n        return self.measure(tc)\n"
        "    def measure(self, tc, *a, **k):\n"
        "        self.score = 1.0\n        self.reason = tc.actual_output\n        return self.score\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    data = tmp_path / "cases.jsonl"
    data.write_text('{"input": "q", "actual_output": "=WEBSERVICE(\\"http://x\\")", "name": "@evil\\rrow"}\n')
    out = tmp_path / "rows.csv"
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", "echo_metrics:Echo", "--no-progress", "--csv", str(out)]
    )
    assert res.exit_code == 0, res.output
    with open(out, encoding="utf-8", newline="") as f:
        [row] = list(csv.DictReader(f))
    assert row["test_case"] == "'@evil\\rrow" and row["reason"] == '\'=WEBSERVICE("http://x")'
