from __future__ import annotations

import json
import os
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
        (
            "swallow.csv",
            'input,actual_output\nq1,a1\n"q2 unterminated,a2\nq3,a3\nq4,a4\n',
            r"swallow.csv:3: unterminated quoted field",
        ),
        (
            "short.csv",
            "input,actual_output\nq1,a1\nq2\n",
            r"short.csv:3: 1 cells but the header has 2 columns",
        ),
        ("long.csv", "input,actual_output\nq1,a1,x\n", r"long.csv:2: 3 cells but the header has 2 columns"),
        ("emptyrow.csv", "input,actual_output\nq1,a1\n,\n", r"emptyrow.csv:3: .*input"),
        (
            "dup.jsonl",
            '{"input": "q"}\n{"input": "q", "input": "d"}\n',
            r"dup.jsonl:2: .*'input' appears twice",
        ),
        (
            "dup.json",
            '[{"input": "q", "actual_output": "a", "actual_output": "b"}]',
            r"dup.json: .*appears twice",
        ),
        ("big.jsonl", '{"input": "q", "metadata": {"n": ' + "9" * 5000 + "}}\n", r"big.jsonl:1: .*digits"),
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
        len(list((tmp_path / "out").glob("*-*.json"))) == 1
        and len(list((tmp_path / "out").glob("*.html"))) == 1
    )
    res = runner.invoke(app, ["evaluate", str(data), "-m", metric_module, "-t", "0.2", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "2/2 test cases passed" in res.output


def test_cli_evaluate_bad_input_exit_2(tmp_path, metric_module):
    runner = CliRunner()
    res = runner.invoke(app, ["evaluate", str(tmp_path / "missing.jsonl"), "-m", metric_module])
    assert res.exit_code == 2 and "no such file" in res.output
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)  # exists, but is no file to read (it would block): said as such, not "no such file"
    res = runner.invoke(app, ["evaluate", str(fifo), "-m", metric_module])
    assert res.exit_code == 2 and "not a regular file" in res.output, res.output
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


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\u0085"])
def test_jsonl_lines_end_at_newline_only_so_raw_separators_in_strings_are_kept(tmp_path, char):
    data = tmp_path / "sep.jsonl"
    text = f"one{char}two"
    data.write_text(
        json.dumps({"input": "q", "actual_output": text}, ensure_ascii=False) + "\r\n" + '{"input": "q2"}\n',
        encoding="utf-8",
    )
    cases = load_test_cases(data)
    assert [c.actual_output for c in cases] == [text, None] and cases[1].input == "q2"


def test_csv_cells_keep_line_separators_and_embedded_newlines(tmp_path):
    data = tmp_path / "sep.csv"
    data.write_bytes(
        'input,actual_output\r\nq1,"a\u2028b\u0085c"\r\n"multi\nline",x\r\nq3,y\r\n'.encode("utf-8")
    )
    cases = load_test_cases(data)
    assert [(c.input, c.actual_output) for c in cases] == [
        ("q1", "a\u2028b\u0085c"),
        ("multi\nline", "x"),
        ("q3", "y"),
    ]


def test_csv_cell_longer_than_the_csv_module_limit_is_read(tmp_path):
    import csv

    long_output = "word " * 40_000  # 200,000 characters, over csv's default 131,072
    data = tmp_path / "long.csv"
    data.write_text(f'input,actual_output\nq,"{long_output}"\n', encoding="utf-8")
    limit = csv.field_size_limit()
    assert load_test_cases(data)[0].actual_output == long_output
    assert csv.field_size_limit() == limit  # the process-wide limit is restored


def test_csv_header_naming_a_column_twice_is_an_error_naming_it(tmp_path):
    data = tmp_path / "dup.csv"
    data.write_text("input,actual_output,actual_output\nq,first,second\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"dup.csv:1: column 'actual_output' appears twice"):
        load_test_cases(data)


def test_csv_trailing_nameless_columns_are_allowed_while_empty(tmp_path):
    data = tmp_path / "trailing.csv"
    data.write_text("input,actual_output,,\nq,a,,\n", encoding="utf-8")
    assert [(c.input, c.actual_output) for c in load_test_cases(data)] == [("q", "a")]
    data.write_text("input,actual_output,,\nq,a,,\nq2,b,,x\n", encoding="utf-8")
    with pytest.raises(
        ConfigurationError, match=r"trailing.csv:3: cell 4 has a value but its column has no header"
    ):
        load_test_cases(data)


def test_errors_name_the_line_of_a_csv_record_after_a_multiline_cell(tmp_path):
    data = tmp_path / "ml.csv"
    data.write_text('input,token_cost\n"a\nb\nc",1\nq,abc\n', encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"ml.csv:5: column 'token_cost' must be a number"):
        load_test_cases(data)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("name", "content", "match"),
    [
        (
            "deep.jsonl",
            '{"input": "q"}\n{"input": "q", "metadata": {"x": ' + DEEP + "}}\n",
            r"deep.jsonl:2: .*too deep",
        ),
        ("deep.json", '[{"input": "q", "metadata": {"x": ' + DEEP + "}}]", r"deep.json: .*too deep"),
        (
            "deep.csv",
            'input,metadata\nq,"{""x"": ' + DEEP + '}"\n',
            r"deep.csv:2: column 'metadata' .*too deep",
        ),
        ("deep2.csv", 'input,context\nq,"' + DEEP + '"\n', r"deep2.csv:2: column 'context' .*too deep"),
    ],
)
def test_json_nested_too_deeply_is_an_error_naming_file_and_line(tmp_path, name, content, match):
    (tmp_path / name).write_text(content, encoding="utf-8")
    with pytest.raises(ConfigurationError, match=match):
        load_test_cases(tmp_path / name)


@pytest.mark.parametrize("suffix", ["jsonl", "json", "csv"])
def test_latin1_file_error_names_the_file_and_line(tmp_path, suffix):
    body = {
        "jsonl": '{"input": "q"}\n{"input": "caf\u00e9"}\n',
        "json": '[{"input": "q"},\n {"input": "caf\u00e9"}]',
        "csv": "input\nq\ncaf\u00e9\n",
    }[suffix]
    data = tmp_path / f"latin.{suffix}"
    data.write_bytes(body.encode("latin-1"))
    line = 3 if suffix == "csv" else 2
    with pytest.raises(ConfigurationError, match=rf"latin.{suffix}:{line}: not UTF-8 text \(byte 0xe9"):
        load_test_cases(data)


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("deep.jsonl", '{"input": "q", "metadata": {"x": ' + DEEP + "}}\n", "deep.jsonl:1"),
        ("dup.csv", "input,input\nq,r\n", "column 'input' appears twice"),
        ("latin.csv", "input\ncaf\u00e9\n", "latin.csv:2: not UTF-8"),
    ],
)
def test_cli_bad_file_is_exit_2_with_a_clear_error_and_no_traceback(
    tmp_path, metric_module, name, content, words
):
    data = tmp_path / name
    data.write_bytes(content.encode("latin-1" if name.startswith("latin") else "utf-8"))
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--no-progress"])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit) and "Traceback" not in res.output
    assert words in res.output and str(tmp_path) in res.output


def test_cli_long_csv_cell_and_separators_are_evaluated(tmp_path, metric_module):
    data = tmp_path / "ok.csv"
    data.write_text(
        'input,actual_output\nq1,"one\u2028two three four"\nq2,"' + "w " * 70_000 + '"\n', encoding="utf-8"
    )
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "2/2 test cases passed" in res.output


def test_tilde_in_the_test_case_file_path_is_the_home_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    (home / "cases.jsonl").write_text('{"input": "q"}\n', encoding="utf-8")
    assert [c.input for c in load_test_cases("~/cases.jsonl")] == ["q"]


@pytest.mark.parametrize(
    ("name", "content", "bad"),
    [
        (
            "cases.jsonl",
            '{"input": "q1", "actual_output": "one two three four"}\n'
            '{"input": "q2", "actual_output": "a", "retrieval_context": "not a list"}\n'
            "{not json\n"
            '{"input": "q4", "actual_output": "one two"}\n',
            [":2: ", ":3: "],
        ),
        (
            "cases.json",
            '[{"input": "q1", "actual_output": "one two three four"}, 7, {"input": "q4", "actual_output": "one two"}]',
            ["[1]: "],
        ),
        (
            "cases.csv",
            "input,actual_output,completion_time\nq1,one two three four,\nq2,a,soon\nq4,one two,\n",
            [":3: "],
        ),
    ],
)
def test_skip_invalid_loads_the_valid_test_cases_and_names_each_skipped_one(tmp_path, name, content, bad):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ConfigurationError):
        load_test_cases(path)  # without the option, one bad record stops the load
    invalid: list[str] = []
    cases = load_test_cases(path, invalid=invalid)
    assert [c.input for c in cases] == ["q1", "q4"]
    assert len(invalid) == len(bad) and all(
        f"{path}{where}" in msg for where, msg in zip(bad, invalid, strict=True)
    )


def test_cli_skip_invalid_evaluates_the_rest_and_reports_every_skipped_line(tmp_path, metric_module):
    data = tmp_path / "cases.jsonl"
    data.write_text(
        '{"input": "q1", "actual_output": "one two three four"}\n'
        '{"input": "q2", "actual_output": "a", "retrieval_context": "not a list"}\n'
        '{"input": "q3", "actual_output": "one two three four five"}\n'
    )
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--no-progress"])
    assert res.exit_code == 2 and f"{data}:2: " in res.output
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", metric_module, "--no-progress", "--skip-invalid"]
    )
    assert res.exit_code == 0, res.output
    assert f"deepeval evaluate: skipped {data}:2: " in res.output
    assert "1 invalid test case(s) skipped, 2 evaluated" in res.output
    assert "2/2 test cases passed" in res.output
    # nothing valid left: still a clear error, naming what was skipped
    data.write_text('{"input": "q2", "actual_output": "a", "retrieval_context": "x"}\n')
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--skip-invalid"])
    assert res.exit_code == 2 and "no test cases in the file (1 invalid skipped; first: " in res.output


@pytest.mark.regression
def test_csv_saved_by_save_as_loads_back_with_its_formula_cells_unescaped(tmp_path):
    from deepeval.dataset import EvaluationDataset, Golden

    golden = Golden(input="=1+1", actual_output="-minus", name="@at", expected_output="''+two quotes")
    path = EvaluationDataset(goldens=[golden]).save_as("csv", str(tmp_path), "cases")
    [case] = load_test_cases(path)
    assert (case.input, case.actual_output, case.name, case.expected_output) == (
        "=1+1",
        "-minus",
        "@at",
        "''+two quotes",
    )


# A misspelt key: deepeval's test-case constructors ignore unknown keyword arguments (4.3.1 too), so the field
# would silently be missing and the row fail later for it; a file we read names the key and the closest known one.


def test_a_misspelt_key_stops_the_run_naming_the_closest_known_key(tmp_path, metric_module):
    data = tmp_path / "cases.jsonl"
    data.write_text(
        '{"input": "q1", "actual_output": "one two"}\n{"input": "q2", "actual_outptu": "a b c d"}\n'
    )
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--no-progress"])
    assert res.exit_code == 2
    assert f"{data}:2: unknown test-case key 'actual_outptu'; did you mean 'actual_output'?" in res.output
    assert "test cases passed" not in res.output  # nothing was measured
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", metric_module, "--no-progress", "--skip-invalid"]
    )
    assert res.exit_code == 0 and f"skipped {data}:2: unknown test-case key 'actual_outptu'" in res.output


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "turns.jsonl",
            '{"turns": [{"role": "user", "contnet": "hi"}]}\n',
            ":1: turns[0]: unknown turn key 'contnet'; did you mean 'content'?",
        ),
        ("cases.csv", "input,actual_ouput\nq,a\n", ":2: unknown test-case key 'actual_ouput'; did you mean"),
        (
            "cases.json",
            '[{"input": "q", "retreival_context": ["x"]}]',
            "[0]: unknown test-case key 'retreival_context'",
        ),
        (
            "far.jsonl",
            '{"input": "q", "zzz": 1}\n',
            ":1: unknown test-case key 'zzz'; known keys: actual_output,",
        ),
    ],
)
def test_unknown_keys_in_every_format(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ConfigurationError) as info:
        load_test_cases(path)
    assert f"{path}{message}" in str(info.value)


def test_every_key_deepeval_writes_or_reads_is_accepted(tmp_path):
    # a goldens file as deepeval 4.3.1's EvaluationDataset.save_as("json") writes it (every Golden field), with
    # actual_output filled in, camelCase spellings and deepeval's other test-case fields
    golden = {
        "input": "q", "actual_output": "a", "expected_output": "e", "retrieval_context": None, "context": None,
        "name": None, "comments": None, "source_file": None, "tools_called": None, "expected_tools": None,
        "token_cost": None, "input_token_count": None, "output_token_count": None, "additional_metadata": None,
        "custom_column_key_values": None, "expectations": None, "images_mapping": None, "multimodal": False,
        "id": None,
    }  # fmt: skip
    camel = {
        "input": "q",
        "actualOutput": "a",
        "retrievalContext": ["c"],
        "completionTime": 1.0,
        "tags": ["t"],
    }
    convo = {
        "turns": [{"role": "user", "content": "hi", "userId": "u", "toolsCalled": None}],
        "scenario": "s", "expectedOutcome": "o", "userDescription": "d", "chatbotRole": "r",
    }  # fmt: skip
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([golden, camel, convo]))
    cases = load_test_cases(path)
    assert [type(c).__name__ for c in cases] == ["LLMTestCase", "LLMTestCase", "ConversationalTestCase"]
    assert cases[1].actual_output == "a" and cases[1].retrieval_context == ["c"]


def test_an_unwritable_csv_path_is_refused_before_any_test_case_is_measured(tmp_path, metric_module):
    """--csv naming a FIFO (or /dev/full) was found out only after every row was measured and paid for (outside
    attack 5, L17): now exit 2 before the run, nothing measured."""
    data = tmp_path / "c.jsonl"
    data.write_text('{"input": "q", "actual_output": "a"}\n')
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    res = CliRunner().invoke(
        app, ["evaluate", str(data), "-m", metric_module, "--csv", str(fifo), "--no-progress"]
    )
    assert res.exit_code == 2 and "--csv" in res.output and "not a regular file" in res.output, res.output
    assert "test cases passed" not in res.output
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--csv", "", "--no-progress"])
    # an empty --csv once wrote nothing, silently
    assert res.exit_code == 2 and "--csv needs a path" in res.output, res.output
    res = CliRunner().invoke(app, ["evaluate", str(data), "-m", metric_module, "--results-folder", " "])
    assert res.exit_code == 2 and "--results-folder needs a path" in res.output, res.output
