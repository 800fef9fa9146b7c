"""The ways user code written for deepeval drives a dataset: goldens -> test cases -> evaluate(), parametrize under
``deepeval test run``, and a dataset kept in CSV/JSON files between runs. Metrics run on the embedded judge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from deepeval import evaluate
from deepeval.dataset import EvaluationDataset, Golden
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

DEEPEVAL = Path(sys.executable).parent / "deepeval"

GOLDENS = [
    {"input": "What is the capital of France?", "expected_output": "Paris"},
    {"input": "What colour is the sky on a clear day?", "expected_output": "Blue"},
    {"input": "How many legs does a spider have?", "expected_output": "Eight"},
]
ANSWERS = {
    "What is the capital of France?": "Paris is the capital of France.",
    "What colour is the sky on a clear day?": "The sky is blue on a clear day.",
    "How many legs does a spider have?": "I like turtles. Bananas are yellow.",
}


def test_goldens_to_test_cases_to_evaluate(tmp_path):
    (tmp_path / "goldens.json").write_text(json.dumps(GOLDENS), encoding="utf-8")
    dataset = EvaluationDataset()
    dataset.add_goldens_from_json_file("goldens.json")
    for golden in dataset.goldens:
        dataset.add_test_case(
            LLMTestCase(
                input=golden.input,
                actual_output=ANSWERS[golden.input],
                expected_output=golden.expected_output,
            )
        )
    result = evaluate(
        dataset.test_cases,
        [AnswerRelevancyMetric(threshold=0.5)],
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    rows = [(t.input, t.success, t.metrics_data[0].score) for t in result.test_results]
    assert rows[:2] == [
        ("What is the capital of France?", True, 1.0),
        ("What colour is the sky on a clear day?", True, 1.0),
    ]
    # the off-topic answer shares no word with the question: the embedded judge is unsure (P 0.26), not certain, and
    # weighs the statement by that P, so it scores 0.2, not 0.0
    assert rows[2][:2] == ("How many legs does a spider have?", False) and rows[2][2] <= 0.2 + 1e-9
    assert all("embedded" in (t.metrics_data[0].evaluation_model or "") for t in result.test_results)


def test_csv_json_round_trip_keeps_the_run_inputs(tmp_path):
    dataset = EvaluationDataset(goldens=[Golden(**g, context=["geo|facts", "basics"]) for g in GOLDENS])
    csv_path = dataset.save_as("csv", str(tmp_path), file_name="v1")
    again = EvaluationDataset()
    again.add_goldens_from_csv_file(csv_path)
    json_path = again.save_as("json", str(tmp_path), file_name="v2")
    final = EvaluationDataset()
    final.add_goldens_from_json_file(json_path)
    assert final.goldens == dataset.goldens
    assert final.goldens[0].context == ["geo|facts", "basics"]


TEST_FILE = textwrap.dedent(
    """
    import pytest
    from deepeval import assert_test
    from deepeval.dataset import EvaluationDataset
    from deepeval.metrics import AnswerRelevancyMetric
    from deepeval.test_case import LLMTestCase

    ANSWERS = {answers!r}

    dataset = EvaluationDataset()
    dataset.add_goldens_from_csv_file("goldens.csv")
    for golden in dataset.goldens:
        dataset.add_test_case(LLMTestCase(input=golden.input, actual_output=ANSWERS[golden.input]))

    @pytest.mark.parametrize("test_case", dataset.test_cases)
    def test_app(test_case: LLMTestCase):
        assert_test(test_case, [AnswerRelevancyMetric(threshold=0.5)])

    @pytest.mark.parametrize("golden", dataset.goldens)
    def test_goldens_have_expected_outputs(golden):
        assert golden.expected_output
    """
)


def test_parametrized_dataset_under_deepeval_test_run(tmp_path):
    EvaluationDataset(goldens=[Golden(**g) for g in GOLDENS]).save_as(
        "csv", str(tmp_path), file_name="goldens"
    )
    (tmp_path / "test_dataset_app.py").write_text(TEST_FILE.format(answers=ANSWERS), encoding="utf-8")
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_dataset_app.py", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr  # one answer is off-topic
    assert "5 passed" in out and "1 failed" in out
    assert "FAILED test_dataset_app.py::test_app[test_case2]" in out
    table = out.split("deepeval results", 1)[1]
    for i in range(3):
        assert f"test_dataset_app.py::test_app[test_case{i}]" in table
    assert "2/3 test cases passed" in table
