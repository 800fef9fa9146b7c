"""Text that is not valid UTF-8 once encoded (lone surrogates, as produced by
``json.loads('"\\udcff"')`` or ``bytes.decode(errors="surrogateescape")``) reaching metrics and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.evaluate.configs import ErrorConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION

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
    reports = sorted(folder.glob("*.json"))
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
