from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from deepeval.cli.main import app
from deepeval.errors import ConfigurationError
from deepeval.evaluate.loading import load_test_cases
from deepeval.test_case import ConversationalTestCase, LLMTestCase

METRIC_MODULE = textwrap.dedent(
    """
    from deepeval.metrics.base_metric import BaseMetric

    class WordCount(BaseMetric):
        def __init__(self, threshold=0.5):
            self.threshold = threshold

        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

        def measure(self, tc, *a, **k):
            self.score = min(1.0, len(tc.actual_output.split()) / 4)
            self.reason = "words"
            self.success = self.score >= self.threshold
            return self.score
    """
)


@pytest.fixture
def metric_module(tmp_path, monkeypatch):
    (tmp_path / "cli_metrics.py").write_text(METRIC_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "cli_metrics:WordCount"


def test_load_jsonl_json_csv(tmp_path):
    (tmp_path / "a.jsonl").write_text(
        '{"input": "q1", "actualOutput": "a"}\n\n{"turns": [{"role": "user", "content": "hi"}]}\n'
    )
    a = load_test_cases(tmp_path / "a.jsonl")
    assert (
        isinstance(a[0], LLMTestCase)
        and a[0].actual_output == "a"
        and isinstance(a[1], ConversationalTestCase)
    )
    (tmp_path / "b.json").write_text(json.dumps({"test_cases": [{"input": "q", "retrieval_context": ["c"]}]}))
    assert load_test_cases(tmp_path / "b.json")[0].retrieval_context == ["c"]
    (tmp_path / "c.csv").write_text(
        "input,actual_output,retrieval_context,metadata\n"
        'q1,a1,"[""x"", ""y""]","{""k"": 1}"\n'
        "q2,a2,just one,\n"
    )
    c = load_test_cases(tmp_path / "c.csv")
    assert c[0].retrieval_context == ["x", "y"] and c[0].metadata == {"k": 1}
    assert c[1].retrieval_context == ["just one"] and c[1].metadata is None


@pytest.mark.parametrize(
    ("name", "content", "match"),
    [
        ("bad.jsonl", '{"input": "q"}\n{"input": 3}\n', r"bad.jsonl:2: LLMTestCase.input"),
        ("bad2.jsonl", '{"input": "q"}\nnot json\n', r"bad2.jsonl:2: not valid JSON"),
        ("bad.csv", "actual_output\nx\n", r"bad.csv:2: .*input"),
        ("empty.jsonl", "\n", "no test cases"),
        ("x.txt", "hello", "unknown file type"),
    ],
)
def test_load_errors_name_file_and_line(tmp_path, name, content, match):
    (tmp_path / name).write_text(content)
    with pytest.raises(ConfigurationError, match=match):
        load_test_cases(tmp_path / name)


def test_cli_evaluate_runs_custom_metric_and_sets_exit_code(tmp_path, metric_module):
    data = tmp_path / "cases.jsonl"
    data.write_text(
        '{"input": "q1", "actual_output": "one two three four"}\n{"input": "q2", "actual_output": "one"}\n'
    )
    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "evaluate",
            str(data),
            "-m",
            metric_module,
            "--no-progress",
            "--results-folder",
            str(tmp_path / "out"),
        ],
    )
    assert res.exit_code == 1, res.output
    assert "1/2 test cases passed" in res.output and "1.000" in res.output and "0.250" in res.output
    assert (
        len(list((tmp_path / "out").glob("*.json"))) == 1
        and len(list((tmp_path / "out").glob("*.html"))) == 1
    )
    res = runner.invoke(app, ["evaluate", str(data), "-m", metric_module, "-t", "0.2", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "2/2 test cases passed" in res.output


def test_cli_evaluate_bad_input_exit_2(tmp_path, metric_module):
    runner = CliRunner()
    res = runner.invoke(app, ["evaluate", str(tmp_path / "missing.jsonl"), "-m", metric_module])
    assert res.exit_code == 2 and "no such file" in res.output
    data = tmp_path / "c.jsonl"
    data.write_text('{"input": "q"}\n')
    res = runner.invoke(app, ["evaluate", str(data), "-m", "no_such_metric"])
    assert res.exit_code == 2 and "unknown metric 'no_such_metric'" in res.output


BROKEN_METRICS = textwrap.dedent(
    """
    from deepeval.metrics.base_metric import BaseMetric

    class NeedsArgs(BaseMetric):
        def __init__(self, required):
            self.threshold = 0.5

    class Exploding(BaseMetric):
        def __init__(self, threshold=0.5):
            raise RuntimeError("cannot start")

        async def a_measure(self, tc, *a, **k):
            return 1.0

        def measure(self, tc, *a, **k):
            return 1.0

    class Erroring(BaseMetric):
        def __init__(self, threshold=0.5):
            self.threshold = threshold

        async def a_measure(self, tc, *a, **k):
            return self.measure(tc)

        def measure(self, tc, *a, **k):
            raise RuntimeError("judge down")
    """
)


@pytest.mark.parametrize(
    ("attr", "words"),
    [
        ("json:dumps", "function, not a deepeval metric class"),
        ("os:path", "module, not a deepeval metric class"),
        ("json:JSONDecoder", "type, not a deepeval metric class"),
        (":X", "must look like package.module:ClassName"),
        ("broken_metrics:NeedsArgs", "TypeError"),
        ("broken_metrics:Exploding", "RuntimeError: cannot start"),
    ],
)
def test_cli_metric_import_path_that_is_not_a_usable_metric_exit_2(tmp_path, monkeypatch, attr, words):
    (tmp_path / "broken_metrics.py").write_text(BROKEN_METRICS)
    monkeypatch.syspath_prepend(str(tmp_path))
    data = tmp_path / "c.jsonl"
    data.write_text('{"input": "q", "actual_output": "a"}\n')
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", attr, "--no-progress"])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)
    flat = " ".join(res.output.replace("│", " ").split())
    assert repr(attr) in flat and words in flat, res.output
    assert "Traceback" not in res.output


def test_cli_errored_rows_name_the_i_flag_not_error_config(tmp_path, monkeypatch):
    (tmp_path / "broken_metrics.py").write_text(BROKEN_METRICS)
    monkeypatch.syspath_prepend(str(tmp_path))
    data = tmp_path / "c.jsonl"
    data.write_text('{"input": "q", "actual_output": "a"}\n')
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", "broken_metrics:Erroring", "--no-progress"])
    assert res.exit_code == 1, res.output
    assert "1 of 1 metric rows errored" in res.output and "RuntimeError: judge down" in res.output
    assert "-i (--ignore-errors)" in res.output and "ErrorConfig" not in res.output
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", "broken_metrics:Erroring", "--no-progress", "-i"]
    )
    assert res.exit_code == 1 and "metric rows errored" not in res.output


def test_cli_results_folder_that_is_a_file_exit_2_before_measuring(tmp_path, metric_module):
    data = tmp_path / "c.jsonl"
    data.write_text('{"input": "q", "actual_output": "a b"}\n')
    blocker = tmp_path / "out"
    blocker.write_text("x")
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", metric_module, "--no-progress", "--results-folder", str(blocker)]
    )
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)
    assert str(blocker) in res.output and "not a directory" in res.output
    assert "test cases passed" not in res.output  # nothing was measured or printed


def test_cli_help_documents_every_error_flag():
    res = CliRunner().invoke(app, ["evaluate", "--help"], terminal_width=200)
    flat = " ".join(res.output.replace("│", " ").split())
    assert "Skip (not error) a metric whose required test-case fields are missing." in flat
    assert "Do not stop on metric errors." in flat
