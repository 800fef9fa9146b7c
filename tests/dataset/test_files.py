from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from deepeval.dataset import (
    ConfidentAIRequiredError,
    ConversationalGolden,
    DatasetError,
    DatasetFileError,
    EvaluationDataset,
    Expectations,
    Golden,
)
from deepeval.errors import DeepEvalError
from deepeval.test_case import ConversationalTestCase, LLMTestCase, RetrievedContextData, ToolCall, Turn

RICH = [
    Golden(
        input='Wie spät ist es?\nSag es mir, "bitte".',
        expected_output="Es ist 3 Uhr — ☕",
        context=["first | with pipe", "second"],
        retrieval_context=[RetrievedContextData(context="chunk", source="doc.pdf"), "plain chunk"],
        tools_called=[ToolCall(name="clock", input_parameters={"tz": "CET"})],
        expected_tools=[ToolCall(name="a;b")],
        additional_metadata={"k": [1, "é"]},
        custom_column_key_values={"team": "a"},
        token_cost=0.25,
        input_token_count=12,
        output_token_count=3,
        name="n1",
        comments="c",
        source_file="f.txt",
        expectations=Expectations(must=["be polite"]),
        expected_labels={"tone": "formal"},
    ),
    Golden(input="empty lists", context=[], retrieval_context=[], tools_called=[], additional_metadata={}),
    Golden(input="one empty item", context=[""], expected_output="x;y|z"),
    Golden(input="looks like json", context=['["a"]']),
    Golden(input="sourceless node", retrieval_context=[RetrievedContextData(context="no source")]),
]


def _load(ft: str, path: str) -> EvaluationDataset:
    ds = EvaluationDataset()
    getattr(ds, f"add_goldens_from_{ft}_file")(path)
    return ds


@pytest.mark.parametrize("ft", ["json", "csv", "jsonl"])
def test_save_then_load_gives_the_same_goldens(tmp_path, ft, capsys):
    path = EvaluationDataset(goldens=RICH).save_as(
        file_type=ft, directory=str(tmp_path / "out"), file_name="g"
    )
    assert path == str(tmp_path / "out" / f"g.{ft}")
    assert capsys.readouterr().out == f"Evaluation dataset saved at {path}!\n"
    loaded = _load(ft, path)
    assert len(loaded) == 5
    assert loaded.goldens == RICH


def test_none_and_empty_string_survive_json_but_not_csv(tmp_path):
    goldens = [Golden(input="a", actual_output="", expected_output=None)]
    ds = EvaluationDataset(goldens=goldens)
    assert _load("json", ds.save_as("json", str(tmp_path), "n")).goldens[0].actual_output == ""
    assert _load("jsonl", ds.save_as("jsonl", str(tmp_path), "n")).goldens[0].actual_output == ""
    # a CSV cell cannot tell "" from no value: both read back as None (as deepeval's pandas reader does)
    assert _load("csv", ds.save_as("csv", str(tmp_path), "n")).goldens[0].actual_output is None


def test_csv_bytes_match_deepevals_layout(tmp_path):
    ds = EvaluationDataset(goldens=[Golden(input="q, 1", context=["a", "b"], expected_output="line1\nline2")])
    text = Path(ds.save_as("csv", str(tmp_path), "x")).read_bytes().decode()
    header, rest = text.split("\r\n", 1)
    assert header.split(",")[:5] == [
        "input",
        "actual_output",
        "expected_output",
        "retrieval_context",
        "context",
    ]
    assert header.endswith(",expectations,expected_labels")
    assert rest == '"q, 1",,"line1\nline2",,a|b,,,,,,,,,,,,\r\n'


def test_list_items_holding_the_delimiter_are_written_as_a_json_array(tmp_path):
    ds = EvaluationDataset(
        goldens=[Golden(input="q", context=["a|b", "c"]), Golden(input="r", context=["a", "b"])]
    )
    rows = Path(ds.save_as("csv", str(tmp_path), "x")).read_text(encoding="utf-8").splitlines()
    assert rows[1] == 'q,,,,"[""a|b"", ""c""]",,,,,,,,,,,,'
    assert rows[2] == "r,,,,a|b,,,,,,,,,,,,"


def test_json_file_is_a_list_of_objects_with_every_key(tmp_path):
    ds = EvaluationDataset(goldens=[Golden(input="q")])
    data = json.loads(Path(ds.save_as("json", str(tmp_path), "x")).read_text(encoding="utf-8"))
    assert data == [
        {
            "input": "q",
            **dict.fromkeys(
                [
                    "actual_output",
                    "expected_output",
                    "retrieval_context",
                    "context",
                    "name",
                    "comments",
                    "source_file",
                    "tools_called",
                    "expected_tools",
                    "token_cost",
                    "input_token_count",
                    "output_token_count",
                    "additional_metadata",
                    "custom_column_key_values",
                    "expectations",
                    "expected_labels",
                ]
            ),
        }
    ]


def test_default_file_name_is_a_timestamp(tmp_path):
    path = Path(EvaluationDataset(goldens=[Golden(input="q")]).save_as("jsonl", str(tmp_path)))
    assert (
        path.suffix == ".jsonl"
        and len(path.stem) == 15
        and path.stem[8] == "_"
        and path.stem.replace("_", "").isdigit()
    )


def test_save_errors(tmp_path):
    with pytest.raises(DatasetError, match="No goldens found"):
        EvaluationDataset().save_as("json", str(tmp_path))
    with pytest.raises(DatasetError, match="Invalid file type 'xml'"):
        EvaluationDataset(goldens=[Golden(input="q")]).save_as("xml", str(tmp_path))  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.regression
@pytest.mark.parametrize("file_name", ["../../x", "../x", "sub/../../x", "ABSOLUTE"])
def test_save_as_file_name_stays_inside_the_directory(tmp_path, file_name):
    """Deliberate (docs: deepeval._safe_path): ``file_name`` names a file inside ``directory``."""
    from deepeval._safe_path import UnsafePathError

    directory = tmp_path / "a" / "b" / "data"
    if file_name == "ABSOLUTE":
        file_name = str(tmp_path / "elsewhere")
    with pytest.raises(UnsafePathError, match="save_as file_name"):
        EvaluationDataset(goldens=[Golden(input="q")]).save_as("json", str(directory), file_name)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


@pytest.mark.regression
def test_save_as_refuses_a_link_at_the_file_it_would_write(tmp_path):
    from deepeval._safe_path import UnsafePathError

    target = tmp_path / "target.txt"
    target.write_text("keep me")
    (tmp_path / "v1.json").symlink_to(target)
    with pytest.raises(UnsafePathError, match="is a symbolic link"):
        EvaluationDataset(goldens=[Golden(input="q")]).save_as("json", str(tmp_path), "v1")
    assert target.read_text() == "keep me" and (tmp_path / "v1.json").is_symlink()


def test_save_as_file_name_may_name_a_subfolder(tmp_path):
    path = EvaluationDataset(goldens=[Golden(input="q")]).save_as("json", str(tmp_path), "v2/goldens")
    assert Path(path) == tmp_path / "v2" / "goldens.json"
    assert _load("json", path).goldens == [Golden(input="q")]


@pytest.mark.regression
def test_save_as_csv_neutralises_formula_cells_and_loads_them_back(tmp_path):
    """The one CSV rule (deepeval._csv_cells): text cells starting with = + - @ TAB CR get a leading quote in the
    file, and loading our file gives back the values written."""
    import csv

    g = Golden(
        input='=HYPERLINK("http://x","y")',
        actual_output="+1+cmd|' /C calc'!A0",
        expected_output="-2+3",
        name="@SUM(A1)",
        comments="\t=1",
        source_file="\r=2",
        context=["=first", "second"],
        retrieval_context=["'-already quoted"],
    )
    path = EvaluationDataset(goldens=[g]).save_as("csv", str(tmp_path), "f")
    with open(path, encoding="utf-8", newline="") as f:
        [row] = list(csv.DictReader(f))
    assert row["input"] == "'" + g.input and row["actual_output"] == "'" + g.actual_output
    assert row["expected_output"] == "'-2+3" and row["name"] == "'@SUM(A1)" and row["comments"] == "'\t=1"
    assert row["source_file"] == "'\r=2" and row["context"] == "'=first|second"
    assert row["retrieval_context"] == "''-already quoted"
    assert _load("csv", path).goldens == [g]


def test_conversational_round_trip(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        g = ConversationalGolden(
            scenario="Return a kettle",
            expected_outcome="refund",
            user_description="impatient",
            turns=[Turn(role="user", content="hi | there"), Turn(role="assistant", content="hello")],
            context=["policy|v2"],
        )
    assert g.persona is not None and g.persona.characteristics == "impatient"
    for ft in ("json", "csv", "jsonl"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            loaded = _load(ft, EvaluationDataset(goldens=[g]).save_as(ft, str(tmp_path), "c"))
        assert loaded.goldens == [g], ft


def test_csv_reads_deepeval_cells(tmp_path):
    f = tmp_path / "g.csv"
    f.write_text(
        "input,context,tools_called,additional_metadata,token_cost,input_token_count\n"
        "q1,a|b,search;calc,\"{'k': 1}\",0.5,3\n"
        'q2,,"[{""name"": ""s"", ""type"": ""FUNCTION"", ""output"": null}]",,,\n',
        encoding="utf-8",
    )
    g1, g2 = _load("csv", str(f)).goldens
    assert g1.context == ["a", "b"]
    assert [t.name for t in g1.tools_called or []] == ["search", "calc"]
    assert g1.additional_metadata == {"k": 1} and g1.token_cost == 0.5 and g1.input_token_count == 3
    assert g2.context is None and g2.tools_called == [ToolCall(name="s")]


def test_custom_column_names_and_delimiter(tmp_path):
    f = tmp_path / "g.csv"
    f.write_text("question,docs\nq,a#b\n", encoding="utf-8")
    ds = EvaluationDataset()
    ds.add_goldens_from_csv_file(
        str(f), input_col_name="question", context_col_name="docs", context_col_delimiter="#"
    )
    assert ds.goldens == [Golden(input="q", context=["a", "b"])]


# ---- bad files: named, located, nothing added --------------------------------------------------------------


def _prefilled() -> EvaluationDataset:
    return EvaluationDataset(goldens=[Golden(input="already here")])


@pytest.mark.parametrize(
    ("name", "data", "loader", "message", "where"),
    [
        ("e.csv", b"", "csv", "the file is empty", (None, None, None)),
        ("e.json", b"  \n", "json", "the file is empty", (None, None, None)),
        ("e.jsonl", b"", "jsonl", "the file is empty", (None, None, None)),
        ("l.csv", b"input\nok\ncaf\xe9\n", "csv", "line 3: not valid utf-8", (3, None, None)),
        ("l.json", b'[{"input": "caf\xe9"}]', "json", "line 1: not valid utf-8", (1, None, None)),
        ("m.csv", b"question,answer\nq,a\n", "csv", "no 'input' column (nor 'scenario'", (None, None, None)),
        (
            "o.json",
            b'{"input": "x"}',
            "json",
            "expected a JSON array of objects, got an object",
            (None, None, None),
        ),
        (
            "s.json",
            b'[\n {"input": "ok"},\n "x"\n]',
            "json",
            "item 2 (line 3): is a string, expected an object",
            (3, 2, None),
        ),
        (
            "i.json",
            b'[{"input": "ok"},\n{"input": 5}]',
            "json",
            "item 2 (line 2), field 'input': Golden.input: Input should be a valid string (got int)",
            (2, 2, "input"),
        ),
        (
            "j.json",
            b'[{"input": "ok"},\n{"input": }]',
            "json",
            "line 2, column 11: not valid JSON",
            (2, None, None),
        ),
        ("b.jsonl", b'{"input": "ok"}\n\n{"input": \n', "jsonl", "line 3: not valid JSON", (3, 2, None)),
        (
            "t.csv",
            b"input,input_token_count\nq,3\nr,many\n",
            "csv",
            "row 2 (line 3), field 'input_token_count': 'many' is not a number",
            (3, 2, "input_token_count"),
        ),
        (
            "c.csv",
            b'input,context\nq,"a\nb"\nr,x,y\n',
            "csv",
            "row 2 (line 4): 3 cells but the header has 2 columns",
            (4, 2, None),
        ),
        (
            "x.json",
            b'[{"input": "a"}, {"scenario": "s"}]',
            "json",
            "item 2 (line 1): is conversational",
            (1, 2, None),
        ),
        (
            "w.json",
            b'[{"input": "a", "context": "not a list"}]',
            "json",
            "field 'context': expected a list of strings, got a string",
            (1, 1, "context"),
        ),
        (
            "tl.jsonl",
            b'{"input": "a", "tools_called": [{"name": "t", "type": "MCP"}]}',
            "jsonl",
            "tool [0] has type 'MCP'",
            (1, 1, "tools_called"),
        ),
        (
            "tu.json",
            b'[{"scenario": "s", "turns": [{"role": "bot", "content": "x"}]}]',
            "json",
            "turn [0]: Turn.role: role must be one of",
            (1, 1, "turns"),
        ),
    ],
)
def test_bad_file_is_named_and_nothing_is_added(tmp_path, name, data, loader, message, where):
    path = tmp_path / name
    path.write_bytes(data)
    ds = _prefilled()
    with pytest.raises(DatasetFileError) as info:
        getattr(ds, f"add_goldens_from_{loader}_file")(str(path))
    assert str(info.value).startswith(str(path))
    assert message in str(info.value)
    assert (info.value.line, info.value.row, info.value.field) == where
    assert ds.goldens == [Golden(input="already here")]
    assert isinstance(info.value, ValueError) and isinstance(info.value, DeepEvalError)


def test_field_is_named_by_the_callers_key(tmp_path):
    path = tmp_path / "q.json"
    path.write_text('[{"question": "a", "docs": ["x", 3]}]', encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        EvaluationDataset().add_goldens_from_json_file(
            str(path), input_key_name="question", context_key_name="docs"
        )
    assert info.value.field == "docs"
    assert "field 'docs': Golden.context[1]: Input should be a valid string (got int)" in str(info.value)


def test_missing_file():
    with pytest.raises(FileNotFoundError, match=r"nope\.json"):
        EvaluationDataset().add_goldens_from_json_file("nope.json")


def test_other_encoding_and_bom(tmp_path):
    (tmp_path / "l.json").write_bytes('[{"input": "café"}]'.encode("latin-1"))
    ds = EvaluationDataset()
    ds.add_goldens_from_json_file(str(tmp_path / "l.json"), encoding_type="latin-1")
    (tmp_path / "b.csv").write_bytes("input\nthé\n".encode("utf-8-sig"))
    ds.add_goldens_from_csv_file(str(tmp_path / "b.csv"))
    assert [g.input for g in ds.goldens] == ["café", "thé"]


def test_loading_the_other_kind_adds_nothing(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('[{"scenario": "s"}]', encoding="utf-8")
    ds = _prefilled()
    with pytest.raises(DatasetError, match="holds conversational goldens but the dataset is single-turn"):
        ds.add_goldens_from_json_file(str(path))
    assert len(ds) == 1


# ---- test cases from files --------------------------------------------------------------------------------


def test_test_cases_from_json_and_csv(tmp_path):
    j = tmp_path / "t.json"
    j.write_text(
        json.dumps([{"q": "a", "out": "b", "ctx": ["c"], "meta": {"m": 1}}, {"q": "d", "out": "e"}]),
        encoding="utf-8",
    )
    c = tmp_path / "t.csv"
    c.write_text("q,out,context,retrieval_context\nf,g,h|i,\n", encoding="utf-8")
    ds = EvaluationDataset()
    ds.add_test_cases_from_json_file(
        str(j),
        input_key_name="q",
        actual_output_key_name="out",
        context_key_name="ctx",
        addtional_metadata_key_name="meta",
    )
    ds.add_test_cases_from_csv_file(str(c), input_col_name="q", actual_output_col_name="out")
    assert ds.test_cases == [
        LLMTestCase(input="a", actual_output="b", context=["c"], metadata={"m": 1}),
        LLMTestCase(input="d", actual_output="e"),
        LLMTestCase(input="f", actual_output="g", context=["h", "i"]),
    ]
    assert ds.goldens == []


def test_test_cases_missing_required_key(tmp_path):
    j = tmp_path / "t.json"
    j.write_text('[{"q": "a", "out": "b"}, {"q": "c"}]', encoding="utf-8")
    ds = EvaluationDataset()
    with pytest.raises(DatasetFileError, match=r"item 2 \(line 1\), field 'out': required key is missing"):
        ds.add_test_cases_from_json_file(str(j), "q", "out")
    c = tmp_path / "t.csv"
    c.write_text("q\na\n", encoding="utf-8")
    with pytest.raises(DatasetFileError, match="no 'out' column; found 'q'"):
        ds.add_test_cases_from_csv_file(str(c), "q", "out")
    assert ds.test_cases == []


def test_save_as_with_test_cases(tmp_path):
    ds = EvaluationDataset(goldens=[Golden(input="g")])
    ds.add_test_case(LLMTestCase(input="tc", actual_output="out", metadata={"m": 1}))
    loaded = _load("json", ds.save_as("json", str(tmp_path), "x", include_test_cases=True))
    assert loaded.goldens == [
        Golden(input="g"),
        Golden(input="tc", actual_output="out", additional_metadata={"m": 1}),
    ]
    assert _load("json", ds.save_as("json", str(tmp_path), "y")).goldens == [Golden(input="g")]


# ---- the container ----------------------------------------------------------------------------------------


def test_kinds_do_not_mix():
    ds = EvaluationDataset(goldens=[Golden(input="a")])
    with pytest.raises(TypeError, match=r"You cannot add 'ConversationalGolden' to a single-turn dataset\."):
        ds.add_golden(ConversationalGolden(scenario="s"))
    with pytest.raises(
        TypeError, match=r"You cannot add 'ConversationalTestCase' to a single-turn dataset\."
    ):
        ds.add_test_case(ConversationalTestCase(turns=[Turn(role="user", content="x")]))
    with pytest.raises(
        TypeError, match=r"goldens\[1\] is a ConversationalGolden but goldens\[0\] is a Golden"
    ):
        EvaluationDataset(goldens=[Golden(input="a"), ConversationalGolden(scenario="s")])
    with pytest.raises(TypeError, match="add_golden takes a Golden or ConversationalGolden, got str"):
        ds.add_golden("a")  # type: ignore[arg-type]
    assert len(ds) == 1 and list(ds) == [Golden(input="a")]
    multi = EvaluationDataset(goldens=[ConversationalGolden(scenario="s")])
    assert multi.goldens == [ConversationalGolden(scenario="s")] and multi.test_cases == []


def test_goldens_setter_is_all_or_nothing():
    ds = EvaluationDataset(goldens=[Golden(input="a")])
    with pytest.raises(TypeError):
        ds.goldens = [Golden(input="b"), "c"]  # type: ignore[list-item]
    assert ds.goldens == [Golden(input="a")]
    ds.goldens = [Golden(input="b")]
    assert [g.input for g in ds] == ["b"]


@pytest.mark.parametrize("method", ["push", "pull", "delete", "create_version", "get_versions"])
def test_cloud_methods_name_the_local_alternative(method):
    with pytest.raises(ConfidentAIRequiredError) as info:
        getattr(EvaluationDataset(), method)("my-alias")
    assert f"EvaluationDataset.{method}() needs Confident AI" in str(info.value)
    assert "add_goldens_from_json_file" in str(info.value) and "save_as" in str(info.value)
    assert isinstance(info.value, ValueError)  # deepeval raises ValueError without a Confident AI key


def test_synthesizer_methods_without_a_judge_say_what_to_configure(regression_env):
    from deepeval.errors import ConfigurationError

    ds = EvaluationDataset(goldens=[Golden(input="a")])
    with pytest.raises(ConfigurationError, match="needs an LLM"):
        ds.generate_goldens_from_contexts([["Paris is in France."]])
    assert len(ds.goldens) == 1


def test_empty_array_and_header_only_files_load_nothing_without_error(tmp_path):
    (tmp_path / "a.json").write_text(" [ ] ", encoding="utf-8")
    (tmp_path / "h.csv").write_text("input,context\r\n", encoding="utf-8")
    ds = EvaluationDataset()
    ds.add_goldens_from_json_file(str(tmp_path / "a.json"))
    ds.add_goldens_from_csv_file(str(tmp_path / "h.csv"))
    assert len(ds) == 0


def test_long_cells_and_lone_surrogates_round_trip(tmp_path):
    import csv as stdlib_csv

    limit_before = stdlib_csv.field_size_limit()
    long_doc = "word " * 60_000  # 300 KB: over the csv module's default cell limit (128 KiB)
    goldens = [Golden(input="q\udcff", retrieval_context=[long_doc])]
    for ft in ("csv", "json", "jsonl"):
        loaded = _load(ft, EvaluationDataset(goldens=goldens).save_as(ft, str(tmp_path), "long"))
        assert loaded.goldens[0].retrieval_context == [long_doc], ft
        if ft != "csv":  # JSON keeps the lone surrogate as its \\udcff escape; CSV holds the six characters
            assert loaded.goldens[0].input == "q\udcff", ft
    assert stdlib_csv.field_size_limit() == limit_before  # the process-wide limit is restored after reading


def test_jsonl_lines_end_at_newline_only_so_raw_separators_in_strings_are_kept(tmp_path):
    path = tmp_path / "sep.jsonl"
    text = "one\u2028two\u0085three"
    path.write_text(
        json.dumps({"input": text}, ensure_ascii=False) + "\r\n" + '{"input": "q2"}\n', encoding="utf-8"
    )
    assert [g.input for g in _load("jsonl", str(path)).goldens] == [text, "q2"]


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    ("name", "data", "loader", "message"),
    [
        ("d.json", "[" + DEEP + "]", "json", "nested too deeply to read"),
        ("d.jsonl", '{"input": "q"}\n' + DEEP + "\n", "jsonl", "nested too deeply to read"),
        (
            "d.csv",
            'input,additional_metadata\nq,"{""x"": ' + DEEP + '}"\n',
            "csv",
            "nested too deeply to read",
        ),
        ("t.csv", 'input,tools_called\nq,"' + DEEP + '"\n', "csv", "nested too deeply to read"),
    ],
)
def test_json_nested_too_deeply_is_an_error_naming_the_file(tmp_path, name, data, loader, message):
    path = tmp_path / name
    path.write_text(data, encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        _load(loader, str(path))
    assert str(info.value).startswith(str(path)) and message in str(info.value)


SWALLOW = 'input,expected_output\nq1,e1\n"q2 unterminated,e2\nq3,e3\nq4,e4\n'


def test_csv_unterminated_quote_is_an_error_naming_the_line_it_opens_on(tmp_path):
    path = tmp_path / "swallow.csv"
    path.write_text(SWALLOW, encoding="utf-8")
    ds = EvaluationDataset()
    with pytest.raises(DatasetFileError) as info:
        ds.add_goldens_from_csv_file(str(path))
    assert str(info.value).startswith(f"{path}, row 2 (line 3): unterminated quoted field")
    assert info.value.line == 3 and len(ds) == 0


def test_csv_row_of_empty_cells_is_kept_and_checked_so_a_missing_input_names_its_line(tmp_path):
    path = tmp_path / "emptyrow.csv"
    path.write_text("input,expected_output\nq1,e1\n,\nq3,e3\n", encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        _load("csv", str(path))
    assert str(info.value).startswith(f"{path}, row 2 (line 3)") and "input" in str(info.value)
    assert info.value.line == 3
    saved = EvaluationDataset(
        goldens=[Golden(input="a"), Golden(input="", expected_output=""), Golden(input="b")]
    )
    with pytest.raises(DatasetFileError, match=r"row 2 \(line 3\)"):  # never a silent 2-golden reload
        _load("csv", saved.save_as("csv", str(tmp_path), "v"))
    path.write_text("input,expected_output\nq1,e1\n\nq3,e3\n", encoding="utf-8")  # a blank line is not a row
    assert [g.input for g in _load("csv", str(path)).goldens] == ["q1", "q3"]


@pytest.mark.parametrize("ft", ["json", "jsonl"])
def test_integer_too_long_to_read_is_an_error_naming_file_and_line(tmp_path, ft):
    item = '{"input": "q", "expected_output": ' + "9" * 5000 + "}"
    text = f'[\n{{"input": "ok"}},\n{item}\n]\n' if ft == "json" else f'{{"input": "ok"}}\n{item}\n'
    path = tmp_path / f"big.{ft}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        _load(ft, str(path))
    assert str(info.value).startswith(str(path)) and "digits" in str(info.value)
    assert info.value.line == (3 if ft == "json" else 2)


@pytest.mark.parametrize("ft", ["json", "jsonl"])
def test_duplicate_json_key_is_an_error_naming_file_line_and_key(tmp_path, ft):
    item = '{"input": "q", "expected_output": "e", "input": "dup"}'
    text = f'[\n{{"input": "ok"}},\n{item}\n]\n' if ft == "json" else f'{{"input": "ok"}}\n{item}\n'
    path = tmp_path / f"dup.{ft}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        _load(ft, str(path))
    assert str(info.value).startswith(str(path)) and "'input' appears twice" in str(info.value)
    assert info.value.line == (3 if ft == "json" else 2)


def test_csv_row_with_fewer_cells_than_the_header_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("input,expected_output\nq1,e1\nq2\n", encoding="utf-8")
    with pytest.raises(DatasetFileError) as info:
        _load("csv", str(path))
    assert str(info.value) == f"{path}, row 2 (line 3): 1 cells but the header has 2 columns"
