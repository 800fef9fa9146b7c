"""Scores: what a person reads is rounded (console, HTML and Markdown reports, assert_test's message, the
quickstart), what a program reads keeps the float as computed (metric.score, to_dict / the JSON export, the CSV)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from deepeval import assert_test, evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.display import render_results
from deepeval.evaluate.report import render_html
from deepeval.test_case import LLMTestCase

from ._fakes import ScoreMetric

NOISY = 1.0 - 0.8  # 0.19999999999999996: a weighted sum of probabilities ends like this


def _run(tmp_path: Path):  # type: ignore[no-untyped-def]
    return evaluate(
        [LLMTestCase(input="q", actual_output="a", name="noisy")],
        [ScoreMetric(NOISY)],
        display_config=DisplayConfig(
            show_indicator=False, print_results=False, file_output_dir=str(tmp_path), file_type="md"
        ),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )


def test_people_read_rounded_scores(tmp_path: Path) -> None:
    result = _run(tmp_path)
    assert repr(NOISY) == "0.19999999999999996"
    for width in (80, 160):
        text = render_results(result, width=width)
        assert "0.200" in text and "0.1999" not in text
    html = render_html(result)
    shown = html.split("<body>", 1)[1].replace(
        f'data-score="{NOISY!r}"', ""
    )  # the sort key is for the script
    assert "0.200" in shown and "0.1999" not in shown
    md = Path(result.extras["report_path"]).read_text(encoding="utf-8")
    assert "| 0.200 |" in md and "0.1999" not in md
    with pytest.raises(AssertionError) as info:
        assert_test(LLMTestCase(input="q", actual_output="a"), [ScoreMetric(NOISY)])
    assert "score: 0.2000" in str(info.value) and "0.1999" not in str(info.value)


def test_programs_read_the_score_as_computed(tmp_path: Path) -> None:
    result = _run(tmp_path)
    assert result.test_results[0].metrics_data[0].score == NOISY
    assert json.loads(result.to_json())["test_results"][0]["metrics_data"][0]["score"] == NOISY
    result.to_csv(tmp_path / "rows.csv")
    row = next(csv.DictReader(open(tmp_path / "rows.csv", encoding="utf-8")))
    assert row["score"] == repr(NOISY)
