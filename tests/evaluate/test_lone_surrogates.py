"""Test-case text holding lone surrogates (not encodable as UTF-8): measured, cached and exported without loss."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from deepeval import evaluate
from deepeval._files import write_text_atomic
from deepeval.evaluate.configs import CacheConfig, DisplayConfig
from deepeval.evaluate.report import export_test_cases
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase
from deepeval.test_case.encodable import encodable

QUESTION = "How long does it take to hard-boil an egg?"
BAD: str = json.loads('"Ten minutes \\udcff in boiling water."')
LONE: str = json.loads('"\\udcff"')
CLEAN = "Ten minutes \ufffd in boiling water."
NO_CACHE = CacheConfig(write_cache=False)


def test_encodable_copies_only_what_changes() -> None:
    tc = LLMTestCase(input=QUESTION, actual_output=BAD, retrieval_context=["ok", BAD], metadata={BAD: [BAD]})
    copy = encodable(tc)
    assert (copy.actual_output, copy.retrieval_context, copy.metadata) == (
        CLEAN,
        ["ok", CLEAN],
        {CLEAN: [CLEAN]},
    )
    assert tc.actual_output == BAD and tc.retrieval_context == ["ok", BAD]  # the caller's case is untouched
    clean = LLMTestCase(input=QUESTION, actual_output="fine")
    assert encodable(clean) is clean
    conv = ConversationalTestCase(turns=[{"role": "user", "content": BAD}])
    assert encodable(conv).turns[0].content == CLEAN and conv.turns[0].content == BAD


def test_encodable_keeps_self_holding_and_very_deep_containers_as_they_are() -> None:
    circular: dict[str, object] = {"k": BAD}
    circular["self"] = circular
    deep: dict[str, object] = {}
    node = deep
    for _ in range(5_000):
        node["x"] = {}
        node = node["x"]  # type: ignore[assignment]
    node["text"] = BAD
    tc = LLMTestCase(input=QUESTION, actual_output=BAD, metadata={"c": circular, "d": deep})
    copy = encodable(tc)
    assert copy.actual_output == CLEAN and copy.metadata is not None
    assert (
        copy.metadata["c"]["k"] == CLEAN and copy.metadata["c"]["self"] is circular
    )  # the cycle is not followed
    assert copy.metadata["d"] is deep  # beyond MAX_DEPTH: kept as it is, no RecursionError


def test_measure_scores_the_same_as_with_the_replacement_character() -> None:
    bad = AnswerRelevancyMetric().measure(LLMTestCase(input=QUESTION, actual_output=BAD))
    clean = AnswerRelevancyMetric().measure(LLMTestCase(input=QUESTION, actual_output=CLEAN))
    assert 0.0 <= bad <= 1.0 and bad == clean


def test_cache_round_trip_and_exports_keep_the_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(tmp_path / "results"))
    db = str(tmp_path / "cache.sqlite")
    cases = [LLMTestCase(input=QUESTION + LONE, actual_output=BAD)]  # the HTML report shows the input
    first = evaluate(cases, [AnswerRelevancyMetric()], cache_config=CacheConfig(cache_path=db))
    second = evaluate(
        cases, [AnswerRelevancyMetric()], cache_config=CacheConfig(cache_path=db, use_cache=True)
    )
    row1, row2 = first.test_results[0].metrics_data[0], second.test_results[0].metrics_data[0]
    assert row1.error is None and not row1.cached and row2.cached and row2.score == row1.score
    reports = sorted((tmp_path / "results").glob("*-*.json"))
    assert len(reports) == 2
    data = json.loads(reports[0].read_text(encoding="utf-8"))
    assert data["test_results"][0]["actual_output"] == BAD  # the \\udcff escape reads back to the original
    html = sorted((tmp_path / "results").glob("*.html"))[0].read_text(encoding="utf-8")
    assert "boil an egg?\\udcff" in html
    paths = export_test_cases(first, tmp_path / "cases")
    assert json.loads(paths[0].read_text(encoding="utf-8"))["actual_output"] == BAD


def test_display_config_file_output_dir(tmp_path: Path) -> None:
    out = tmp_path / "per_case"
    result = evaluate(
        [LLMTestCase(input=QUESTION, actual_output=BAD)],
        [AnswerRelevancyMetric()],
        display_config=DisplayConfig(file_output_dir=str(out)),
        cache_config=CacheConfig(write_cache=False),
    )
    assert "export_error" not in result.extras
    assert json.loads((out / "test_case_0.json").read_text(encoding="utf-8"))["actual_output"] == BAD


def test_atomic_write_leaves_nothing_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    target = tmp_path / "r.json"
    target.write_text("old", encoding="utf-8")

    def boom(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space left"):
        write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # the temporary file is gone


def _strict_stdout(monkeypatch: pytest.MonkeyPatch) -> io.BytesIO:
    """stdout as a terminal with a strict UTF-8 locale has it (``LANG=en_US.UTF-8``): lone surrogates raise."""
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8", errors="strict"))
    return raw


def test_results_table_prints_a_lone_surrogate_name_on_a_strict_stdout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = _strict_stdout(monkeypatch)
    cases = [
        LLMTestCase(input=QUESTION, actual_output="Ten minutes.", name="egg" + LONE),
        LLMTestCase(input=QUESTION, actual_output="About ten minutes.", name="plain"),
    ]
    result = evaluate(
        cases,
        [AnswerRelevancyMetric()],
        display_config=DisplayConfig(show_indicator=False),
        cache_config=NO_CACHE,
    )
    sys.stdout.flush()
    assert [t.name for t in result.test_results] == ["egg" + LONE, "plain"]  # the result keeps the original
    assert all(m.error is None for t in result.test_results for m in t.metrics_data)
    printed = raw.getvalue().decode("utf-8")
    assert "egg\ufffd" in printed and "plain" in printed


def test_cli_evaluate_prints_a_lone_surrogate_name_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    data = tmp_path / "cases.jsonl"
    data.write_text(
        json.dumps({"input": QUESTION, "actual_output": "Ten minutes.", "name": "egg" + LONE}) + "\n",
        encoding="utf-8",
    )
    res = CliRunner().invoke(app, ["evaluate", str(data), "--no-progress", "-i"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert (
        "Traceback" not in res.output and "egg\ufffd" in res.output and "/1 test cases passed" in res.output
    )


def test_metric_name_with_a_lone_surrogate_is_cached_and_served(tmp_path: Path) -> None:
    from ._fakes import ScoreMetric

    db = str(tmp_path / "c.sqlite")
    name = "Score" + LONE
    quiet = DisplayConfig(show_indicator=False, print_results=False)
    first = evaluate(
        [LLMTestCase(input=QUESTION, actual_output=BAD)],
        [ScoreMetric(0.7, name=name)],
        display_config=quiet,
        cache_config=CacheConfig(cache_path=db),
    )
    again = evaluate(
        [LLMTestCase(input=QUESTION, actual_output=BAD)],
        [ScoreMetric(0.7, name=name)],
        display_config=quiet,
        cache_config=CacheConfig(cache_path=db, use_cache=True),
    )
    (row1,), (row2,) = first.metric_rows(), again.metric_rows()
    assert (row1.cached, row2.cached, row2.name, row2.score) == (False, True, name, 0.7)
