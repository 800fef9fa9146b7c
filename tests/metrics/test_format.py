"""The format and instruction metrics. ExactMatchMetric, PatternMatchMetric, JsonCorrectnessMetric: scored in code,
never by a judge. PromptAlignmentMetric: one verdict per prompt instruction (yes = followed), at the end.

Facts from deepeval 4.3.1's source and runs (bench/safety_parity.py gives identical scores on 15 inputs each):
ExactMatch compares the stripped outputs (threshold 1; input, actual_output, expected_output required);
PatternMatch ``fullmatch``es the stripped output against the stripped pattern (threshold 1.0; invalid pattern ->
ValueError at construction); JsonCorrectness validates with ``model_validate_json`` (strict_mode=True by default, so
the threshold is 1), and its LLM only explains a failure.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from deepeval import assert_test, evaluate
from deepeval.cli.main import app
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics import ExactMatchMetric, JsonCorrectnessMetric, PatternMatchMetric
from deepeval.metrics.pattern_match import PatternMatchTimeoutError
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM

from .helpers import block, schema_name


@pytest.fixture(autouse=True)
def _no_network_and_a_scratch_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No judge is configured (tests/metrics/conftest.py) and no connection can be opened: a metric that tried to
    reach a judge would fail here."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a judge-free metric opened a connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.chdir(tmp_path)


def case(actual: str | None, expected: str | None = None) -> LLMTestCase:
    return LLMTestCase(input="q", actual_output=actual, expected_output=expected)


# -- ExactMatch ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("actual", "expected", "score"),
    [
        ("Hello", "Hello", 1.0),
        ("  Hello \n", "Hello", 1.0),  # surrounding whitespace is stripped from both
        ("\u00a0x\u00a0", "x", 1.0),  # str.strip() strips the no-break space too
        ("hello", "Hello", 0.0),  # case counts
        ("Hello world", "Hello  world", 0.0),  # inner whitespace counts
        ("Café", "Cafe\u0301", 0.0),  # no Unicode normalisation
        ("42", "42.0", 0.0),
    ],
)
def test_exact_match_scores(actual: str, expected: str, score: float) -> None:
    metric = ExactMatchMetric()
    assert metric.measure(case(actual, expected)) == score
    assert (metric.precision, metric.recall, metric.f1) == (score, score, score)
    assert metric.success is (score == 1.0) and metric.threshold == 1
    assert metric.evaluation_model is None and metric.score_breakdown["judge_calls"] == 0


def test_exact_match_needs_the_expected_output() -> None:
    with pytest.raises(MissingTestCaseParamsError, match="expected_output"):
        ExactMatchMetric().measure(case("x"))


def test_exact_match_threshold_and_score_only_mode() -> None:
    metric = ExactMatchMetric(threshold=None)
    assert metric.measure(case("a", "b")) == 0.0 and metric.success is None
    with pytest.raises(ValueError, match="threshold"):
        ExactMatchMetric(threshold=float("nan"))


# -- PatternMatch ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pattern", "ignore_case", "actual", "score"),
    [
        (r"\d{3}-\d{4}", False, "555-1234", 1.0),
        (r"\d{3}-\d{4}", False, "call 555-1234", 0.0),  # the whole output must match
        (r"hello", True, "HeLLo", 1.0),
        (r"hello", False, "HeLLo", 0.0),
        (r"[a-z]+@[a-z]+\.com", False, " bob@mail.com ", 1.0),  # the output is stripped
        (r"  \w+  ", False, "word", 1.0),  # so is the pattern
        (r"a.c", False, "a\nc", 0.0),  # "." does not match a newline
        (r"Straße", True, "STRASSE", 0.0),  # simple case folding, as re
        (r"x{2,3}", False, "xxxx", 0.0),
    ],
)
def test_pattern_match_scores(pattern: str, ignore_case: bool, actual: str, score: float) -> None:
    metric = PatternMatchMetric(pattern=pattern, ignore_case=ignore_case)
    assert metric.measure(case(actual)) == score
    assert metric.success is (score == 1.0) and metric.threshold == 1.0
    assert f"Pattern:\n{pattern.strip()}" in metric.verbose_logs


@pytest.mark.parametrize("pattern", ["(unclosed", "a{2,1}", "*x", "(?P<n>a)(?P<n>b)"])
def test_an_invalid_pattern_is_a_value_error_at_construction(pattern: str) -> None:
    with pytest.raises(ValueError, match="invalid regular expression"):
        PatternMatchMetric(pattern=pattern)


@pytest.mark.parametrize(
    ("kwargs", "error"), [({"pattern": 5}, TypeError), ({"pattern": "a", "match_timeout": 0}, ValueError)]
)
def test_bad_constructor_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        PatternMatchMetric(**kwargs)


def test_a_catastrophic_pattern_is_bounded_in_time() -> None:
    """``(x+x+)+y`` on 5,000 x's backtracks exponentially (Python's re would hold the GIL for hours); the match
    gives up after match_timeout and the measure errors, scoring nothing."""
    metric = PatternMatchMetric(pattern=r"(x+x+)+y", match_timeout=0.2)
    started = time.monotonic()
    with pytest.raises(PatternMatchTimeoutError, match=r"took longer than 0\.2 s"):
        metric.measure(case("x" * 5000))
    assert time.monotonic() - started < 3.0
    assert metric.score is None and metric.success is None


def test_a_catastrophic_pattern_costs_only_its_row_in_evaluate() -> None:
    slow = PatternMatchMetric(pattern=r"(x+x+)+y", match_timeout=0.1)
    from deepeval.evaluate import ErrorConfig

    result = evaluate([case("x" * 5000), case("xxy")], [slow], error_config=ErrorConfig(ignore_errors=True))
    rows = [t.metrics_data[0] for t in result.test_results]
    assert rows[0].score is None and "took longer" in (rows[0].error or "")
    assert rows[1].score == 1.0 and rows[1].success is True


# -- JsonCorrectness -------------------------------------------------------------------------------------------------
class Person(BaseModel):
    name: str
    age: int


@pytest.mark.parametrize(
    ("output", "score"),
    [
        ('{"name": "Ada", "age": 36}', 1.0),
        ('{"name": "Ada", "age": "36"}', 1.0),  # pydantic's lax mode, as 4.3.1
        ('{"name": "Ada"}', 0.0),
        ("not json", 0.0),
        ("[]", 0.0),
    ],
)
def test_json_correctness_without_an_llm_explains_with_the_validation_error(
    output: str, score: float
) -> None:
    metric = JsonCorrectnessMetric(expected_schema=Person)
    assert metric.threshold == 1.0 and metric.strict_mode is True
    assert metric.measure(case(output)) == score
    assert metric.success is (score == 1.0)
    if score:
        assert metric.reason == "The actual output is valid JSON that matches the expected schema."
    else:
        assert "validation error for Person" in metric.reason
    assert metric.evaluation_model is None


def test_json_correctness_not_strict_uses_the_threshold() -> None:
    metric = JsonCorrectnessMetric(expected_schema=Person, strict_mode=False, threshold=0.5)
    assert metric.threshold == 0.5


@pytest.mark.parametrize("schema", [{"type": "object"}, '{"type": "object"}', dict, BaseModel, None])
def test_an_invalid_schema_is_a_type_error_at_construction(schema: Any) -> None:
    with pytest.raises(TypeError, match="expected_schema must be a pydantic model class"):
        JsonCorrectnessMetric(expected_schema=schema)


def test_a_schema_instance_is_read_as_its_class() -> None:
    metric = JsonCorrectnessMetric(expected_schema=Person(name="a", age=1))
    assert metric.measure(case('{"name": "b", "age": 2}')) == 1.0


def test_the_llm_only_explains_a_failure_and_sees_the_output_as_data() -> None:
    def respond(prompt: str, schema: Any) -> Any:
        assert schema_name(schema) == "JsonCorrectnessScoreReason"
        return {"reason": "age is missing"}

    llm = ScriptedLLM(respond)
    metric = JsonCorrectnessMetric(expected_schema=Person, model=llm)
    assert metric.measure(case('{"name": "Ada"}')) == 0.0
    assert metric.reason == "age is missing" and llm.call_count == 1
    assert metric.evaluation_model == "scripted-llm" and metric.score_breakdown["judge_calls"] == 1
    assert block(llm.prompts[0], "TEXT") == '{"name": "Ada"}'
    assert json.loads(block(llm.prompts[0], "DATA"))["title"] == "Person"
    # a valid output: no call
    assert metric.measure(case('{"name": "Ada", "age": 1}')) == 1.0 and llm.call_count == 1
    # system_one mode (as 4.3.1): no LLM even when one is given; the validation error is the reason
    quiet = JsonCorrectnessMetric(expected_schema=Person, model=llm, eval_mode="system_one")
    assert quiet.measure(case("{}")) == 0.0 and llm.call_count == 1 and "validation error" in quiet.reason


# -- every judge-free metric through the whole surface ---------------------------------------------------------------
JUDGE_FREE = [
    (lambda: ExactMatchMetric(), case("yes", "yes"), case("yes", "no")),
    (lambda: PatternMatchMetric(pattern="y.s"), case("yes"), case("no")),
    (lambda: JsonCorrectnessMetric(expected_schema=Person), case('{"name": "a", "age": 1}'), case("{}")),
]


@pytest.mark.parametrize(("make", "good", "bad"), JUDGE_FREE, ids=["exact", "pattern", "json"])
def test_measure_a_measure_evaluate_and_assert_test_with_no_judge(make: Any, good: Any, bad: Any) -> None:
    import asyncio

    assert make().measure(good) == 1.0
    assert asyncio.run(make().a_measure(bad)) == 0.0
    result = evaluate([good, bad], [make()])
    assert [t.success for t in result.test_results] == [True, False]
    assert_test(good, [make()])
    with pytest.raises(AssertionError):
        assert_test(bad, [make()])


def test_the_cli_runs_exact_match_by_its_registry_name(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    lines = [
        {"input": "q", "actual_output": "Paris", "expected_output": "Paris"},
        {"input": "q", "actual_output": "Lyon", "expected_output": "Paris"},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    csv = tmp_path / "rows.csv"
    out = CliRunner().invoke(
        app, ["evaluate", str(path), "--metric", "exact_match", "--no-progress", "--csv", str(csv)]
    )
    assert out.exit_code == 1, out.output  # one test case failed
    text = csv.read_text(encoding="utf-8")
    assert text.count("Exact Match") == 2 and ",1.0," in text and ",0.0," in text


def test_the_cli_says_pattern_match_needs_its_pattern(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "q", "actual_output": "a"}) + "\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["evaluate", str(path), "--metric", "pattern_match", "--no-progress"])
    assert out.exit_code == 2 and "pattern" in out.output


# -- PromptAlignment (judged) ----------------------------------------------------------------------------------------
INSTRUCTIONS = ["Answer in French.", "Use at most ten words.", "End with a question."]


def alignment_judge(verdicts: list[str]) -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        if schema_name(schema) == "Verdicts":
            return {"verdicts": [{"reason": f"because {v}", "verdict": v} for v in verdicts]}
        return {"reason": "scripted reason"}

    return ScriptedLLM(respond)


def test_prompt_alignment_one_verdict_per_instruction_in_one_call() -> None:
    from deepeval.metrics import PromptAlignmentMetric

    llm = alignment_judge(["yes", "no", "yes"])
    metric = PromptAlignmentMetric(INSTRUCTIONS, model=llm, eval_mode="llm")
    assert metric.measure(case("Bonjour, ça va ?")) == pytest.approx(2 / 3)
    assert [schema_name(c.schema) for c in llm.calls] == ["Verdicts", "PromptAlignmentScoreReason"]
    assert json.loads(block(llm.prompts[0], "INSTRUCTIONS")) == INSTRUCTIONS
    assert block(llm.prompts[0], "ANSWER") == "Bonjour, ça va ?"


@pytest.mark.parametrize("instructions", [[], [""], ["ok", 3], None])
def test_prompt_alignment_needs_instructions(instructions: Any) -> None:
    from deepeval.metrics import PromptAlignmentMetric

    with pytest.raises(ValueError, match="instruction"):
        PromptAlignmentMetric(instructions)


def test_prompt_alignment_system_one_asks_one_question_per_instruction() -> None:
    from deepeval.metrics import PromptAlignmentMetric
    from deepeval.testing.scripted import ScriptedSystemOne

    s1 = ScriptedSystemOne(lambda state, qs: dict(zip(qs, [0.9, 0.3, 0.6], strict=True)))
    metric = PromptAlignmentMetric(INSTRUCTIONS, system_one_model=s1, eval_mode="system_one")
    assert metric.measure(case("Bonjour ?")) == pytest.approx((0.9 + 0.3 + 0.6) / 3)
    assert s1.calls[0].state == {"input": "q", "actual_output": "Bonjour ?"}
