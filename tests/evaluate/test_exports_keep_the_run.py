"""Run exports (EvaluationResult.to_json / iter_json, report files, DisplayConfig.results_folder) keep the
run: strict JSON, odd metadata, lone surrogates, folders given with a leading `~`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _support.markers import REGRESSION, known_limit
from _support.priced_metric import PricedMetric
from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.evaluate.configs import ErrorConfig
from deepeval.evaluate.report import save_json
from deepeval.evaluate.results import EvaluationResult, MetricData, TestResult
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION


def _strict_loads(text: str) -> object:
    def refuse(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_run_json_file_is_strict_json_when_a_cost_is_not_finite(tmp_path: Path) -> None:
    """Regression: run-level totals kept NaN/inf, so the exported JSON held 'NaN'/'Infinity' (not JSON)."""
    result = evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [PricedMetric(cost=float("nan"))],
        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=str(tmp_path)),
    )
    text = Path(result.extras["json_path"]).read_text(encoding="utf-8")
    data = _strict_loads(text)
    assert data["totals"]["cost_usd"] is None  # type: ignore[index]
    for md in ({"score": float("nan"), "threshold": 0.5}, {"score": 0.5, "evaluation_cost": float("inf")}):
        run = EvaluationResult(
            [
                TestResult(
                    name="t", success=False, metrics_data=[MetricData(name="m", **md)], conversational=False
                )
            ],
            run_id="r",
        )
        _strict_loads(run.to_json())


def test_row_costs_whose_sum_overflows_make_the_run_cost_unknown_not_inf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression (outside attack 7): three rows of 1e308 USD each (finite) summed to inf, shown as `cost $inf` and
    exported as the run's cost. A sum that is not finite is unknown, everywhere a run's cost is summed: the
    summary line, the JSON totals, deepeval's test_run file and the session's TestRun."""
    from deepeval.test_run import TestRun

    result = evaluate(
        [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(3)],
        [PricedMetric(cost=1e308)],
        display_config=DisplayConfig(show_indicator=False, results_folder=str(tmp_path)),
    )
    assert [t.metrics_data[0].evaluation_cost for t in result.test_results] == [
        1e308
    ] * 3  # each row is known
    assert result.total_cost is None
    out = capsys.readouterr().out
    assert "cost unknown;" in out and "inf" not in out
    data = _strict_loads(Path(result.extras["json_path"]).read_text(encoding="utf-8"))
    assert data["totals"]["cost_usd"] is None  # type: ignore[index]
    test_run = json.loads(Path(result.extras["test_run_path"]).read_text(encoding="utf-8"))
    assert "evaluationCost" not in test_run  # None is left out of deepeval's file, as for a run with no cost
    session = TestRun()
    for t in result.test_results:
        session.add_test_case(t)
    assert session.evaluation_cost is None
    session.add_test_case(  # a later small cost does not make the overflowed sum look known again
        TestResult(
            name="t",
            success=True,
            metrics_data=[MetricData(name="m", evaluation_cost=0.5)],
            conversational=False,
        )
    )
    assert session.evaluation_cost is None


def test_export_of_mixed_type_set_in_metadata_does_not_lose_the_run(tmp_path: Path) -> None:
    """Regression: a set of mixed types in metadata made the export raise TypeError after the run, losing every row."""
    result = evaluate(
        [LLMTestCase(input="q", actual_output="a", metadata={"ids": {1, "a"}})],
        [PricedMetric()],
        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=str(tmp_path)),
    )
    assert result.test_results[0].metrics_data[0].score == 1.0
    data = _strict_loads(Path(result.extras["json_path"]).read_text(encoding="utf-8"))
    assert sorted(map(str, data["test_results"][0]["metadata"]["ids"])) == ["1", "a"]  # type: ignore[index]


@known_limit(
    reason=(
        "KNOWN LIMIT (exports, not a fix we can make): two adjacent lone surrogates '\\ud83d\\ude00' (2 code "
        "points, e.g. from surrogatepass decoding) are written as the JSON escapes \\ud83d\\ude00, which JSON "
        "defines as one pair: they read back as '\\U0001f600' (1 code point). JSON has no other spelling for them"
    ),
)
def test_adjacent_lone_surrogates_round_trip(tmp_path: Path) -> None:
    text = "a\ud83d\ude00b"
    run = EvaluationResult(
        [TestResult(name="t", success=True, metrics_data=[], conversational=False, input=text)], run_id="r"
    )
    path = save_json(run, tmp_path / "run.json")
    back = json.loads(path.read_text(encoding="utf-8"))["test_results"][0]["input"]
    assert [hex(ord(c)) for c in back] == [hex(ord(c)) for c in text]


# ----------------------------------------------------------------------------------------------------------
# Export folders given with a leading ``~`` (DisplayConfig.results_folder / file_output_dir,
# DEEPEVAL_RESULTS_FOLDER).


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
    assert len(list((home / "deepeval-results").glob("*-*.json"))) == 1
    assert len(list((home / "deepeval-results").glob("*.html"))) == 1
    assert (home / "cases" / "test_case_0.json").is_file()


# ----------------------------------------------------------------------------------------------------------
# Text that is not valid UTF-8 once encoded (lone surrogates, as produced by ``json.loads('"\udcff"')`` or
# ``bytes.decode(errors="surrogateescape")``) reaching metrics and reports.


QUESTION = "How long does it take to hard-boil an egg?"
# A lone surrogate: what json.loads gives for the escape \udcff (a real JSON export of a scraped page can carry it).
SURROGATE_OUTPUT: str = json.loads('"Ten minutes \\udcff in boiling water."')


def test_results_folder_report_survives_lone_surrogate_in_a_test_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "results"
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(folder))
    cases = [
        LLMTestCase(input=QUESTION, actual_output=SURROGATE_OUTPUT),
        LLMTestCase(input=QUESTION, actual_output="About ten minutes in boiling water."),
    ]
    result = evaluate(cases, [AnswerRelevancyMetric()], error_config=ErrorConfig(ignore_errors=True))
    assert len(result.test_results) == 2
    reports = sorted(folder.glob("*-*.json"))
    assert len(reports) == 1
    data = json.loads(reports[0].read_text(encoding="utf-8"))
    assert len(data["test_results"]) == 2


def test_lone_surrogate_is_rejected_at_construction_or_scored() -> None:
    try:
        tc = LLMTestCase(input=QUESTION, actual_output=SURROGATE_OUTPUT)
    except (TypeError, ValueError) as exc:  # a clear rejection naming the field is acceptable
        assert "actual_output" in str(exc)
        return
    score = AnswerRelevancyMetric().measure(tc)
    assert 0.0 <= score <= 1.0
