"""deepeval compare on two run exports: per-row changes, newly failing / passing rows, the seeded bootstrap
interval, judge and prompt-version differences, and the exit codes a CI gate relies on."""

from __future__ import annotations

import json
import math
import random
import statistics
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deepeval import evaluate
from deepeval.cli.main import app
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.compare import bootstrap_ci, compare_files, render_html
from deepeval.evaluate.report import save_json
from deepeval.metrics.scoring import mean_of
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

SCORES_A = {"q0": 0.9, "q1": 0.2, "q2": 0.7, "q3": 0.6}
SCORES_B = {"q0": 0.3, "q1": 0.8, "q2": 0.7, "q3": 0.65}


def _run(scores, judge, prompt_version, path, error_on=None):
    cases = [LLMTestCase(input=q, actual_output="a", name=f"case {q}") for q in scores]
    metric = ScoreMetric(
        lambda tc, n: scores[tc.input],
        name="Acc",
        judge=judge,
        prompt_version=prompt_version,
        fail_on=(lambda tc: "judge down" if tc.input == error_on else None),
    )
    result = evaluate(
        cases,
        [metric],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
        identifier=path.stem,
    )
    save_json(result, path)
    return path


@pytest.fixture
def runs(tmp_path):
    a = _run(SCORES_A, "judge-a", "p1", tmp_path / "a.json")
    b = _run(SCORES_B, "judge-b", "p2", tmp_path / "b.json")
    return a, b


def test_compare_rows_metrics_and_differences(runs):
    cmp = compare_files(str(runs[0]), str(runs[1]), seed=7)
    assert [(r.test_case, r.status_a, r.status_b) for r in cmp.newly_failing] == [
        ("case q0", "passed", "failed")
    ]
    assert [r.test_case for r in cmp.newly_passing] == ["case q1"]
    deltas = {r.test_case: r.delta for r in cmp.rows}
    assert deltas["case q0"] == pytest.approx(-0.6) and deltas["case q2"] == pytest.approx(0.0)
    assert [r.test_case for r in cmp.changed] == ["case q0", "case q1", "case q3"]
    (m,) = cmp.metrics
    assert m.paired == 4 and m.mean_delta == pytest.approx((-0.6 + 0.6 + 0 + 0.05) / 4)
    # the interval is a seeded percentile bootstrap of the paired changes
    values = [-0.6, 0.6, 0.0, 0.05]
    rng = random.Random(7)
    means = sorted(statistics.fmean(rng.choices(values, k=4)) for _ in range(2000))
    assert (m.ci_low, m.ci_high) == (pytest.approx(means[49]), pytest.approx(means[1950]))
    assert m.ci_low < m.mean_delta < m.ci_high
    assert compare_files(str(runs[0]), str(runs[1]), seed=7).metrics[0].ci_low == m.ci_low  # reproducible
    assert [(d.metric, d.a, d.b) for d in cmp.judges] == [("Acc", ["judge-a"], ["judge-b"])]
    assert [(d.metric, d.a, d.b) for d in cmp.prompt_versions] == [("Acc", ["p1"], ["p2"])]


def test_bootstrap_edges():
    assert bootstrap_ci([]) == (None, None)
    assert bootstrap_ci([0.25]) == (0.25, 0.25)
    assert bootstrap_ci([0.1, 0.1, 0.1]) == (pytest.approx(0.1), pytest.approx(0.1))


def test_cli_compare_exit_1_on_newly_failing_and_writes_html(runs, tmp_path):
    html = tmp_path / "cmp.html"
    res = CliRunner().invoke(app, ["compare", str(runs[0]), str(runs[1]), "--html", str(html)])
    assert res.exit_code == 1, res.output
    assert "1 newly failing; 1 newly passing" in res.output
    assert "Judges differ for Acc: A judge-a; B judge-b" in res.output
    assert "Prompt versions differ for Acc: A p1; B p2" in res.output
    assert "case q0 / Acc: 0.900 -> 0.300 (failed)" in res.output
    page = html.read_text()
    tags: list[tuple[str, dict]] = []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            tags.append((tag, dict(attrs)))

    P().feed(page)
    assert not any(t in ("script", "link", "img") for t, _ in tags)
    classes = [a.get("class") for t, a in tags if t == "tr" and a.get("class")]
    assert classes == ["newly-failing", "newly-passing", "same", "same"]
    assert render_html(compare_files(str(runs[0]), str(runs[1]))) == page


def test_cli_compare_exit_0_when_nothing_newly_fails(runs):
    res = CliRunner().invoke(app, ["compare", str(runs[1]), str(runs[1])])
    assert res.exit_code == 0, res.output
    assert "0 changed; 0 newly failing" in res.output


def test_an_error_after_a_pass_counts_as_newly_failing(tmp_path):
    a = _run(SCORES_A, "j", "p", tmp_path / "a.json")
    b = _run(SCORES_A, "j", "p", tmp_path / "b.json", error_on="q2")
    cmp = compare_files(str(a), str(b))
    assert [(r.test_case, r.status_b, r.delta) for r in cmp.newly_failing] == [("case q2", "error", None)]
    assert cmp.metrics[0].paired == 3


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"runs": []}', "not a deepeval run export"),
        ('{"test_results": [1]}', "test_results[0] is not a test result"),
        (
            "[" * 100_000 + "]" * 100_000,
            "nested too deeply",
        ),  # was a RecursionError traceback (issue 42 item 6)
    ],
)
def test_cli_compare_bad_files_exit_2_without_traceback(runs, tmp_path, content, words):
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    res = CliRunner().invoke(app, ["compare", str(runs[0]), str(bad)])
    assert res.exit_code == 2
    assert words in res.output and "Traceback" not in res.output
    assert str(bad) in res.output


def _set(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


ROW = ("test_results", 0, "metrics_data", 0)
MALFORMED = {
    "score as a string": _set((*ROW, "score"), "0.5"),
    "score as a list": _set((*ROW, "score"), [0.5]),
    "score 10**400": _set((*ROW, "score"), 10**400),
    "score NaN": _set((*ROW, "score"), float("nan")),
    "score Infinity": _set((*ROW, "score"), float("inf")),
    "test case name as a list": _set(("test_results", 0, "name"), ["case q0"]),
    "test case name null": _set(("test_results", 0, "name"), None),
    "metric name as a list": _set((*ROW, "name"), ["Acc"]),
    "metric name missing": lambda doc: doc["test_results"][0]["metrics_data"][0].pop("name"),
    "metrics_data item a string": _set(("test_results", 0, "metrics_data", 0), "Acc"),
    "metrics_data an object": _set(("test_results", 0, "metrics_data"), {"Acc": 1}),
    "test result null": _set(("test_results", 0), None),
    "threshold a string": _set((*ROW, "threshold"), "high"),
    "success a string": _set((*ROW, "success"), "yes"),
    "error a number": _set((*ROW, "error"), 5),
    "evaluation_model a list": _set((*ROW, "evaluation_model"), ["j"]),
    "prompt_version an object": _set((*ROW, "prompt_version"), {"v": 1}),
    "skipped a string": _set((*ROW, "skipped"), "no"),
    "repeat a string": _set((*ROW, "repeat"), "3"),
    "repeat with other keys": _set((*ROW, "repeat"), {"times": 3}),
    "index a string": _set(("test_results", 0, "index"), "0"),
}


@pytest.mark.regression
@pytest.mark.parametrize("variant", list(MALFORMED))
def test_cli_compare_malformed_export_is_one_line_and_exit_2(runs, tmp_path, variant):
    doc = json.loads(runs[1].read_text(encoding="utf-8"))
    MALFORMED[variant](doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    for args in ([str(runs[0]), str(bad)], [str(bad), str(runs[0])]):
        res = CliRunner().invoke(app, ["compare", *args])
        assert res.exit_code == 2 and isinstance(res.exception, SystemExit), (
            variant,
            res.output,
            res.exception,
        )
        assert (
            res.output.startswith(f"deepeval compare: {bad}: test_results[0]") and res.output.count("\n") == 1
        )


def test_cli_compare_usage_error_exit_2(runs):
    res = CliRunner().invoke(app, ["compare", str(runs[0])])
    assert res.exit_code == 2


def test_rows_only_in_one_run_are_listed(tmp_path):
    a = _run(SCORES_A, "j", "p", tmp_path / "a.json")
    b = _run({"q0": 0.9, "q9": 0.5}, "j", "p", tmp_path / "b.json")
    cmp = compare_files(str(a), str(b))
    assert [k[0] for k in cmp.only_in_a] == ["case q1", "case q2", "case q3"]
    assert cmp.only_in_b == [("case q9", "Acc", 0)]
    data = json.loads(b.read_text())
    assert data["totals"]["test_cases"] == 2


@pytest.mark.regression
def test_huge_finite_score_exports_compares_and_views(tmp_path: Path) -> None:
    """A custom metric's score of 1e308 (finite) writes its HTML report, and compare / view read the export (the
    histogram overflowed to inf and broke the export; compare then printed 309 digits: issue 42 item 5)."""
    folder = tmp_path / "runs"
    evaluate(
        [LLMTestCase(input="q", actual_output="a")],
        [ScoreMetric(1e308, name="Huge", threshold=0.5)],
        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=str(folder)),
        cache_config=CacheConfig(write_cache=False),
    )
    [export] = sorted(folder.glob("*-*.json"))
    assert len(list(folder.glob("*.html"))) == 1
    res = CliRunner().invoke(app, ["compare", str(export), str(export)])
    assert res.exit_code == 0, res.output
    assert "1e+308" in res.output and "0" * 30 not in res.output
    res = CliRunner().invoke(app, ["view", "--failing", str(export)])
    assert res.exit_code == 0, res.output


def test_compare_averages_scores_whose_sum_passes_the_float_limit(tmp_path: Path) -> None:
    """Two rows scoring 1e308: their sum overflows fmean, which made `deepeval compare` end in a traceback with exit
    1 (the exit code of a regression; outside attack 5). Now the mean is 1e308 and nothing newly fails."""
    folder = tmp_path / "runs"
    evaluate(
        [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(2)],
        [ScoreMetric(1e308, name="Huge", threshold=0.5)],
        display_config=DisplayConfig(show_indicator=False, print_results=False, results_folder=str(folder)),
        cache_config=CacheConfig(write_cache=False),
    )
    [export] = sorted(folder.glob("*-*.json"))
    comparison = compare_files(export, export)
    [metric] = comparison.metrics
    assert (metric.paired, metric.mean_a, metric.mean_b, metric.mean_delta) == (2, 1e308, 1e308, 0.0)
    res = CliRunner().invoke(app, ["compare", str(export), str(export)])
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output


def test_rows_an_interrupted_run_never_measured_are_not_regressions(tmp_path: Path) -> None:
    """Run B stopped by Ctrl-C after one row: its unmeasured rows were 'passed -> error NEWLY FAILING' and compare
    exited 1, never saying B was interrupted (outside attack 5, M8)."""
    a = _run(SCORES_A, "judge-a", "p1", tmp_path / "a.json")
    data = json.loads(a.read_text(encoding="utf-8"))
    data["extras"] = {"interrupted": "SIGINT: 1 of 4 rows finished"}
    for t in data["test_results"][1:]:
        for m in t["metrics_data"]:
            m.update(
                score=None,
                success=False,
                error="not finished: the run was interrupted",
                error_kind="interrupted",
            )
    b = tmp_path / "b.json"
    b.write_text(json.dumps(data), encoding="utf-8")
    cmp = compare_files(str(a), str(b))
    assert (len(cmp.rows), len(cmp.newly_failing), len(cmp.not_measured)) == (4, 0, 3)
    assert cmp.interruptions == [
        "run B was interrupted (SIGINT: 1 of 4 rows finished); its rows that were never measured are not compared"
    ]
    html = tmp_path / "cmp.html"
    res = CliRunner().invoke(app, ["compare", str(a), str(b), "--html", str(html)])
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split())
    assert "3 not measured" in said and "run B was interrupted" in said
    assert "run B was interrupted" in html.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1e308, 1e308], 1e308), ([0.25, 0.75], 0.5), ([1e308, -1e308], 0.0), ([math.inf, 1.0], math.inf)],
)
def test_mean_of_scores_never_overflows(values: list[float], expected: float) -> None:
    assert mean_of(values) == expected


def test_mean_of_opposite_infinities_is_nan_and_of_nothing_an_error() -> None:
    assert math.isnan(mean_of([math.inf, -math.inf]))
    with pytest.raises(ValueError, match="at least one"):
        mean_of([])


@pytest.mark.regression
def test_view_failing_on_a_deeply_nested_file_is_a_clear_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    res = CliRunner().invoke(app, ["view", "--failing", str(deep)])
    assert res.exit_code != 0 and isinstance(res.exception, (SystemExit, type(None))), res.exception
    assert "nested too deeply" in res.output and "Traceback" not in res.output


@pytest.mark.regression
def test_a_score_beyond_float_is_an_error_row_not_a_crash() -> None:
    """A custom metric's 10**400 (an int no float holds) raised a bare OverflowError from evaluate(), losing the
    other rows: it is an error row like inf (h-break)."""
    from deepeval.metrics.base_metric import BaseMetric

    class Big(BaseMetric):
        threshold = 0.5

        def measure(self, tc, *a, **k):  # type: ignore[no-untyped-def]
            self.score, self.success, self.reason = (10**400 if tc.input == "b" else 0.9), True, "r"
            return self.score

        async def a_measure(self, tc, *a, **k):  # type: ignore[no-untyped-def]
            return self.measure(tc)

    metric = Big()
    result = evaluate(
        [LLMTestCase(input=i, actual_output="o") for i in "abc"],
        [metric],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    rows = [(t.input, t.metrics_data[0].error) for t in result.test_results]
    assert rows[0] == ("a", None) and rows[2] == ("c", None)
    assert rows[1][0] == "b" and "non-finite score" in (rows[1][1] or "")


@pytest.mark.regression
def test_a_result_that_cannot_be_read_is_an_error_row() -> None:
    """h-break2: a score whose __float__ raises (or a raising score / reason property) escaped evaluate() even
    with ignore_errors, losing every row: it is that row's error."""
    from deepeval.metrics.base_metric import BaseMetric

    class Boom:
        def __float__(self) -> float:
            raise RuntimeError("float boom")

    class M(BaseMetric):
        threshold = 0.5

        def measure(self, tc, *a, **k):  # type: ignore[no-untyped-def]
            self.score, self.success, self.reason = (Boom() if tc.input == "b" else 0.9), True, "r"
            return 0.9

        async def a_measure(self, tc, *a, **k):  # type: ignore[no-untyped-def]
            return self.measure(tc)

    result = evaluate(
        [LLMTestCase(input=i, actual_output="o") for i in "ab"],
        [M()],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    rows = [(t.input, t.metrics_data[0].score, t.metrics_data[0].error) for t in result.test_results]
    assert rows == [("a", 0.9, None), ("b", None, "RuntimeError: float boom")]
