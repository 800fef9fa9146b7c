"""Metrics users define themselves: GEval (deepeval 4.3.1's behaviour on the parity facts; our eval modes).

Expected scores come from deepeval 4.3.1 run on the same judge answers (``bench/geval_parity.py``: 24/24
identical) or from its formula written out (``weighted``)."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest
from pydantic import ValidationError

from deepeval import assert_test, evaluate
from deepeval.errors import ConfigurationError, MissingTestCaseParamsError, StructuredOutputError
from deepeval.metrics import GEval
from deepeval.metrics.g_eval import GEvalTemplate, Rubric
from deepeval.metrics.g_eval.metric import clear_steps_cache
from deepeval.models import LocalModel
from deepeval.models.logprobs import TokenLogprob, weighted_score
from deepeval.models.system_one.typesafe import TypeSafeModel
from deepeval.test_case import LLMTestCase, SingleTurnParams
from deepeval.testing import OpenAIChatServer, SystemOneServer, wire_score
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

P = SingleTurnParams
IO = [P.INPUT, P.ACTUAL_OUTPUT]
CASE = LLMTestCase(input="What is 2 + 2?", actual_output="4", expected_output="4")
CRITERIA = "Is the actual output correct for the input?"


@pytest.fixture(autouse=True)
def _fresh_steps_cache() -> None:
    clear_steps_cache()


def judge(
    score: Any = 7, reason: str = "scripted reason", steps: tuple[str, ...] = ("a", "b")
) -> ScriptedLLM:
    """An LLM judge that writes ``steps`` and gives ``score`` (a list: one per score request, in order)."""
    scores = list(score) if isinstance(score, list) else None

    def respond(prompt: str, schema: Any) -> Any:
        name = getattr(schema, "__name__", None)
        if name == "Steps":
            return {"steps": list(steps)}
        if name == "Reason":
            return {"reason": "hybrid reason"}
        value = scores.pop(0) if scores is not None else score
        return {"reason": reason, "score": value}

    return ScriptedLLM(respond)


def schemas(llm: ScriptedLLM) -> list[str]:
    return [getattr(c.schema, "__name__", "text") for c in llm.calls]


# -- construction: deepeval 4.3.1's checks and messages --------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"evaluation_params": []}, ValueError, "evaluation_params cannot be an empty list."),
        ({"criteria": "  "}, ValueError, "Criteria provided cannot be an empty string."),
        (
            {"criteria": None, "evaluation_steps": []},
            ValueError,
            "'evaluation_steps' must not be an empty list",
        ),
        ({"rubric": []}, ValueError, "rubric must hold at least one Rubric"),  # ours: deepeval ignores []
        (
            {
                "rubric": [
                    Rubric(score_range=(0, 5), expected_outcome="a"),
                    Rubric(score_range=(5, 10), expected_outcome="b"),
                ]
            },
            ValueError,
            r"Overlapping score ranges: \(0, 5\) and \(5, 10\)",
        ),
        ({"rubric": [Rubric(score_range=(4, 4), expected_outcome="a")]}, ValueError, "single score 4"),
        ({"top_logprobs": -1}, ValueError, "top_logprobs"),
    ],
)
def test_bad_definitions_are_refused_at_construction(
    kwargs: dict[str, Any], error: type, message: str
) -> None:
    base: dict[str, Any] = {"name": "X", "criteria": CRITERIA, "evaluation_params": IO}
    with pytest.raises(error, match=message):
        GEval(**{**base, **kwargs})


@pytest.mark.parametrize(
    ("score_range", "message"),
    [
        ((0, 11), "between 0 and 10 inclusive"),
        ((6, 2), "start must be less than or equal to end"),
        ((1.5, 2), "integer"),
    ],
)
def test_rubric_ranges_are_checked_as_deepeval_does(score_range: Any, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Rubric(score_range=score_range, expected_outcome="x")


def test_the_name_has_the_geval_suffix_and_the_rubric_sets_the_range() -> None:
    m = GEval(
        name="Correctness",
        criteria=CRITERIA,
        evaluation_params=IO,
        rubric=[
            Rubric(score_range=(7, 10), expected_outcome="good"),
            Rubric(score_range=(2, 6), expected_outcome="bad"),
        ],
        model=judge(),
    )
    assert m.__name__ == "Correctness [GEval]" and m.score_range == (2, 10) and m.score_range_span == 8
    assert (
        [r.score_range for r in m.rubric or []] == [(2, 6), (7, 10)]
        and m.threshold == 0.5
        and m.top_logprobs == 20
    )
    assert GEval(name="C", criteria=CRITERIA, _include_g_eval_suffix=False).__name__ == "C"
    assert GEval(name="C", criteria=CRITERIA, strict_mode=True).threshold == 1


def test_the_deprecated_params_name_still_works() -> None:
    import deepeval.test_case as tc

    with pytest.warns(DeprecationWarning):
        old = tc.LLMTestCaseParams  # type: ignore[attr-defined]
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=[old.INPUT, old.ACTUAL_OUTPUT], model=judge(8))
    assert m.measure(CASE) == pytest.approx(0.8)


def test_missing_criteria_and_steps_is_an_error_at_measure_and_one_error_row() -> None:
    m = GEval(name="X", evaluation_params=IO, model=judge())  # deepeval builds it (pull() could fill it in)
    with pytest.raises(ValueError, match=r"Either 'criteria' or 'evaluation_steps' must be provided\."):
        m.measure(CASE)
    good = GEval(name="Y", criteria=CRITERIA, evaluation_params=IO, model=judge(9))
    res = evaluate([CASE], [m, good], **_quiet())
    rows = {md.name: md for md in res.test_results[0].metrics_data}
    assert "Either 'criteria'" in (rows["X [GEval]"].error or "") and rows["X [GEval]"].score is None
    assert rows["Y [GEval]"].score == pytest.approx(0.9) and rows["Y [GEval]"].error is None


def test_a_missing_field_names_it_and_no_evaluation_params_explains_the_trace() -> None:
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=[P.INPUT, P.EXPECTED_OUTPUT], model=judge())
    with pytest.raises(MissingTestCaseParamsError, match="expected_output"):
        m.measure(LLMTestCase(input="q", actual_output="a"))
    with pytest.raises(MissingTestCaseParamsError, match="no evaluation_params"):
        GEval(name="X", criteria=CRITERIA, model=judge()).measure(CASE)


# -- llm mode -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rubric", "raw", "expected"),
    [
        (None, 7, 0.7),
        (None, 0, 0.0),
        ([(2, 4, "poor"), (5, 8, "good")], 5, 0.5),  # (5 - 2) / (8 - 2)
        ([(0, 2, "wrong"), (3, 6, "partial"), (7, 9, "mostly"), (10, 10, "right")], 3, 0.3),
    ],
)
def test_llm_score_is_normalised_on_the_range(rubric: Any, raw: int, expected: float) -> None:
    rub = None if rubric is None else [Rubric(score_range=(a, b), expected_outcome=t) for a, b, t in rubric]
    llm = judge(raw)
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, rubric=rub, model=llm)
    assert m.measure(CASE) == pytest.approx(expected)
    assert (
        m.reason == "scripted reason"
        and m.evaluation_steps == ["a", "b"]
        and m.evaluation_model == "scripted-llm"
    )
    assert m.success is (expected >= 0.5) and schemas(llm) == ["Steps", "ReasonScore"]
    if rub is not None:
        assert "5-8: good" in llm.prompts[1] or "3-6: partial" in llm.prompts[1]


def test_steps_are_written_once_per_criteria_and_judge_and_given_steps_need_none() -> None:
    llm = judge(6)
    for text in ("first", "second"):
        GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm).measure(
            LLMTestCase(input=text, actual_output="a")
        )
    assert schemas(llm).count("Steps") == 1  # the second metric, same criteria: no steps request
    GEval(name="X", criteria="Another criteria.", evaluation_params=IO, model=llm).measure(CASE)
    assert schemas(llm).count("Steps") == 2
    given = GEval(name="X", evaluation_steps=["Check it."], evaluation_params=IO, model=llm)
    given.measure(CASE)
    assert schemas(llm).count("Steps") == 2 and "1. Check it." in llm.prompts[-1]


def test_concurrent_test_cases_share_one_steps_request() -> None:
    llm = judge(5)
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm)
    cases = [LLMTestCase(input=f"q{i}", actual_output="a") for i in range(6)]
    res = evaluate(cases, [m], **_quiet())
    assert [tr.metrics_data[0].score for tr in res.test_results] == [0.5] * 6
    assert schemas(llm).count("Steps") == 1 and schemas(llm).count("ReasonScore") == 6


@pytest.mark.parametrize(
    ("replies", "message"),
    [
        (["seven", "eight"], "ReasonScore"),
        ([11, 12], "outside the range 0-10"),
        ([float("nan"), float("nan")], "not a number"),
        ([True, True], "not true or false"),  # JSON true was read as 1 (outside attack 5, L15)
    ],
)
def test_a_judge_that_gives_no_usable_score_is_reasked_once_then_one_error_row(
    replies: list[Any], message: str
) -> None:
    llm = judge(replies)
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm)
    with pytest.raises(StructuredOutputError, match=message):
        m.measure(CASE)
    assert schemas(llm) == ["Steps", "ReasonScore", "ReasonScore"] and m.score is None
    res = evaluate(
        [CASE, CASE.model_copy(update={"input": "other"})],
        [GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=judge([11, 12, 4]))],
        **_quiet(),
    )
    scores = sorted((md.score is None, md.error is None) for tr in res.test_results for md in tr.metrics_data)
    assert scores == [(False, True), (True, False)]  # one error row, the other case scored


def test_a_score_out_of_range_once_is_fixed_by_the_reask() -> None:
    llm = judge([15, 9])
    assert GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm).measure(CASE) == pytest.approx(
        0.9
    )
    assert "outside the range 0-10" in llm.prompts[-1]


@pytest.mark.parametrize(("raw", "expected"), [(1, 1.0), (0, 0.0)])
def test_strict_mode_asks_for_pass_or_fail(raw: int, expected: float) -> None:
    llm = judge(raw)
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm, strict_mode=True)
    assert m.measure(CASE) == expected and m.success is (expected == 1.0)
    assert "0 or 1" in llm.prompts[-1]


def test_async_mode_false_and_a_measure_give_the_same_result() -> None:
    a = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=judge(6), async_mode=False).measure(
        CASE
    )
    b = asyncio.run(GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=judge(6)).a_measure(CASE))
    assert a == b == pytest.approx(0.6)


def test_a_custom_template_written_for_deepeval_is_called_with_its_keywords() -> None:
    class Mine(GEvalTemplate):
        @staticmethod
        def generate_evaluation_results(
            evaluation_steps: str, test_case_content: str, score_range: tuple[int, int]
        ) -> str:
            return f"MINE {score_range}\n{evaluation_steps}\n{test_case_content}"

    llm = judge(4)
    GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm, evaluation_template=Mine).measure(
        CASE
    )
    assert llm.prompts[-1].startswith("MINE (0, 10)\n1. a\n2. b")


def test_assert_test_names_the_failed_geval() -> None:
    with pytest.raises(AssertionError, match=r"X \[GEval\]"):
        assert_test(CASE, [GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=judge(2))])


# -- the log-probability weighted score ------------------------------------------------------------------------
def _tok(token: str, alternatives: dict[str, float]) -> TokenLogprob:
    return TokenLogprob(
        token, math.log(alternatives.get(token, 1.0)), {t: math.log(p) for t, p in alternatives.items()}
    )


@pytest.mark.parametrize(
    ("alternatives", "raw", "expected"),
    [
        ({"7": 0.6, "8": 0.25, "6": 0.1, " 7": 0.03, "x": 0.02}, 7, (7 * 0.6 + 8 * 0.25 + 6 * 0.1) / 0.95),
        ({"0": 0.8, "1": 0.15, "2": 0.005}, 0, 0.15 / 0.95),  # under 1 %: left out
        ({"6": 0.9, "٦": 0.1}, 6, 6.0),  # str.isdecimal() digits of another script count as their value
        ({"7": 0.5, "8": 0.5}, 7.5, None),  # no token spells "7.5"
        ({"7": 0.5, "8": 0.5}, 7.0, None),  # nor "7.0"
        ({"x": 1.0}, "x", None),  # nothing decimal
    ],
)
def test_weighted_score_is_deepevals_formula(
    alternatives: dict[str, float], raw: Any, expected: float | None
) -> None:
    spelled = "7" if isinstance(raw, float) else str(raw)  # a float is several tokens ("7", ".", "5")
    tokens = [TokenLogprob("{", 0.0, {}), _tok(spelled, alternatives), TokenLogprob("}", 0.0, {})]
    got = weighted_score(tokens, raw)
    assert got == (None if expected is None else pytest.approx(expected))


def test_weighted_score_takes_the_last_matching_token_and_ours_keeps_it_on_the_scale() -> None:
    early = TokenLogprob("3", 0.0, {"3": 0.0})
    last = _tok("3", {"3": 0.5, "9": 0.3, "2": 0.2})
    assert weighted_score([early, last], 3) == pytest.approx(3 * 0.5 + 9 * 0.3 + 2 * 0.2)
    assert weighted_score([early, last], 3, low=0, high=4) == pytest.approx((3 * 0.5 + 2 * 0.2) / 0.7)


@pytest.mark.parametrize("bad", [math.nan, 0.5])
def test_a_position_with_no_log_probability_keeps_the_raw_score(bad: float) -> None:
    """A server's NaN (or positive) 'log-probability' on the score token made the weighted score NaN, so the
    score became 0.0 (outside attack 6, low 1): such a position is not weighted (the caller keeps the raw score)."""
    position = TokenLogprob("7", -0.1, {"7": -0.1, "8": bad})
    assert weighted_score([position], 7) is None


def _score_positions(content: str, score: str, alternatives: dict[str, float]) -> list[dict[str, float]]:
    head, _, _ = content.rpartition(score)
    return [{head: 0.0}, {t: math.log(p) for t, p in alternatives.items()}, {"}": 0.0}]


def test_an_openai_compatible_judge_with_logprobs_gives_the_weighted_score_over_the_wire() -> None:
    content = json.dumps({"reason": "Mostly right; 8 of the facts match.", "score": 8})

    def respond(request: dict[str, Any]) -> Any:
        fmt = (request.get("response_format") or {}).get("json_schema", {}).get("name")
        if fmt == "Steps":
            return json.dumps({"steps": ["Compare.", "Decide."]})
        assert (
            request.get("logprobs") is True
            and request.get("top_logprobs") == 5
            and "response_format" not in request
        )
        return {
            "content": content,
            "logprobs": _score_positions(content[:-1], "8", {"8": 0.6, "9": 0.3, "7": 0.1}),
        }

    with OpenAIChatServer(respond) as srv:
        llm = LocalModel(model="loopback-judge", base_url=srv.base_url, api_key="k")
        m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm, top_logprobs=5)
        assert m.measure(CASE) == pytest.approx((8 * 0.6 + 9 * 0.3 + 7 * 0.1) / 10)
        assert srv.counters.requests == 2
    assert m.score_breakdown["logprob_weighted"] is True and m.input_tokens and m.output_tokens
    assert m.reason == "Mostly right; 8 of the facts match."


def test_a_server_without_logprobs_gets_the_plain_call_and_is_remembered() -> None:
    def respond(request: dict[str, Any]) -> Any:
        fmt = (request.get("response_format") or {}).get("json_schema", {}).get("name")
        if fmt == "Steps":
            return json.dumps({"steps": ["Compare."]})
        if request.get("logprobs"):
            return {"content": json.dumps({"reason": "r", "score": 6}), "logprobs": []}
        return json.dumps({"reason": "r", "score": 6})

    with OpenAIChatServer(respond) as srv:
        llm = LocalModel(model="no-logprobs", base_url=srv.base_url, api_key="k")
        for _ in range(2):
            assert GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=llm).measure(
                CASE
            ) == pytest.approx(0.6)
        with_logprobs = [b for b in srv.counters.bodies if b.get("logprobs")]
    assert (
        len(with_logprobs) == 1 and srv.counters.requests == 4
    )  # steps, refused logprob call, 2 plain calls


# -- hybrid and system_one (ours) --------------------------------------------------------------------------------
def _s1(probs: list[float]) -> ScriptedSystemOne:
    from deepeval.models.system_one.schema import ScoreAnswer

    answer = ScoreAnswer(
        score=sum(i * p for i, p in enumerate(probs)),
        probabilities=dict(enumerate(probs)),
        confidence=0.5,
    )
    return ScriptedSystemOne(lambda state, questions: {qid: answer for qid in questions})


def test_hybrid_system_one_scores_and_the_llm_writes_steps_and_reason() -> None:
    llm = judge(2)
    # six default levels at 0, 2, ..., 10: expected value 0.5 * 8 + 0.5 * 10 = 9
    m = GEval(
        name="X",
        criteria=CRITERIA,
        evaluation_params=IO,
        model=llm,
        system_one_model=_s1([0, 0, 0, 0, 0.5, 0.5]),
        eval_mode="hybrid",
    )
    assert m.measure(CASE) == pytest.approx(0.9)
    assert schemas(llm) == ["Steps", "Reason"] and m.reason == "hybrid reason" and m.confidence == 0.5
    assert (
        m.evaluation_model == "scripted-llm + scripted-system-one"
        and m.score_breakdown["decided_by"] == "system_one"
    )


def test_hybrid_levels_come_from_the_rubric_at_band_midpoints() -> None:
    rub = [
        Rubric(score_range=(0, 2), expected_outcome="wrong"),
        Rubric(score_range=(3, 9), expected_outcome="partial"),
        Rubric(score_range=(10, 10), expected_outcome="right"),
    ]
    seen: list[Any] = []

    def respond(state: Any, questions: Any) -> Any:
        seen.append(questions)
        from deepeval.models.system_one.schema import ScoreAnswer

        return {
            qid: ScoreAnswer(score=1.0, probabilities={0: 0.25, 1: 0.5, 2: 0.25}, confidence=0.2)
            for qid in questions
        }

    m = GEval(
        name="X",
        criteria=CRITERIA,
        evaluation_params=IO,
        rubric=rub,
        model=judge(),
        system_one_model=ScriptedSystemOne(respond),
        eval_mode="hybrid",
    )
    assert m.measure(CASE) == pytest.approx((0.25 * 1 + 0.5 * 6 + 0.25 * 10) / 10)
    q = next(iter(seen[0].values()))
    assert q.levels == ["0-2: wrong", "3-9: partial", "10: right"] and CRITERIA in q.instructions


def test_hybrid_falls_back_to_the_llm_when_system_one_is_down() -> None:
    with SystemOneServer(api_key="right") as srv:
        s1 = TypeSafeModel(model="jev-latest", api_key="wrong", base_url=srv.base_url, max_retries=0)
        llm = judge(3)
        m = GEval(
            name="X",
            criteria=CRITERIA,
            evaluation_params=IO,
            model=llm,
            system_one_model=s1,
            eval_mode="hybrid",
        )
        assert m.measure(CASE) == pytest.approx(0.3)
    assert "auth" in (m.system_one_fallback_reason or "") and "wrong" not in (
        m.system_one_fallback_reason or ""
    )
    assert schemas(llm) == ["Steps", "ReasonScore"]


def test_system_one_mode_asks_one_score_question_over_the_wire_and_no_llm() -> None:
    seen: list[Any] = []

    def respond(state: Any, questions: dict[str, Any]) -> Any:
        seen.append((state, questions))
        return {qid: wire_score([0, 0, 0, 0.2, 0.8, 0]) for qid in questions}

    with SystemOneServer(respond) as srv:
        s1 = TypeSafeModel(model="jev-latest", api_key="k", base_url=srv.base_url, max_retries=0)
        m = GEval(
            name="X", criteria=CRITERIA, evaluation_params=IO, system_one_model=s1, eval_mode="system_one"
        )
        assert m.measure(CASE) == pytest.approx((0.2 * 6 + 0.8 * 8) / 10)
    state, questions = seen[0]
    assert state == {"input": "What is 2 + 2?", "actual_output": "4"} and list(questions) == [
        "criteria_score"
    ]
    assert (
        questions["criteria_score"]["type"] == "score" and len(questions["criteria_score"]["criteria"]) == 6
    )
    assert m.evaluation_model == "jev-latest (jev-2026-10-01)" and "7.6" in (m.reason or "")
    assert m.model is None


def test_system_one_mode_without_a_system_one_judge_says_what_to_configure() -> None:
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, eval_mode="system_one")
    with pytest.raises(ConfigurationError, match="TYPESAFE_API_KEY") as err:
        m.measure(CASE)
    assert "no measured answer" in str(err.value)  # the one offline rule (_engine/unmeasured.py)
    res = evaluate(
        [CASE], [GEval(name="X", criteria=CRITERIA, evaluation_params=IO, eval_mode="system_one")], **_quiet()
    )
    md = res.test_results[0].metrics_data[0]
    assert md.score is None and "TYPESAFE_API_KEY" in (md.error or "")


def test_llm_mode_without_an_llm_says_what_to_configure() -> None:
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
        GEval(name="X", criteria=CRITERIA, evaluation_params=IO, eval_mode="llm").measure(CASE)


def test_the_cache_key_follows_the_definition() -> None:
    a = GEval(name="X", criteria=CRITERIA, evaluation_params=IO, model=judge()).cache_config()
    b = GEval(name="X", criteria=CRITERIA + "!", evaluation_params=IO, model=judge()).cache_config()
    c = GEval(
        name="X",
        criteria=CRITERIA,
        evaluation_params=IO,
        model=judge(),
        rubric=[Rubric(score_range=(0, 4), expected_outcome="x")],
    ).cache_config()
    assert a != b and a != c and a["eval_mode"] == "llm"


def _quiet() -> dict[str, Any]:
    """evaluate() keywords: nothing printed, errored rows returned rather than raised."""
    from deepeval.evaluate import DisplayConfig, ErrorConfig

    return {
        "display_config": DisplayConfig(print_results=False, show_indicator=False),
        "error_config": ErrorConfig(ignore_errors=True),
    }


USER_MODULE = """
from deepeval.metrics import GEval
from deepeval.test_case import SingleTurnParams
from deepeval.testing.scripted import ScriptedLLM


def _respond(prompt, schema):
    if schema.__name__ == "Steps":
        return {"steps": ["Compare."]}
    return {"reason": "ok", "score": 8 if "apple" in prompt else 3}


correctness = GEval(
    name="Correctness",
    criteria="Is the output right?",
    evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
    model=ScriptedLLM(_respond),
)
"""


def test_the_cli_runs_a_geval_the_user_defined_in_a_module(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from deepeval.cli.main import app

    (tmp_path / "my_geval_metrics.py").write_text(USER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    cases = tmp_path / "cases.jsonl"
    rows = [
        {"input": "red apple pie", "actual_output": "an apple pie"},
        {"input": "sky", "actual_output": "blue"},
    ]
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    csv = tmp_path / "rows.csv"
    spec = "my_geval_metrics:correctness"
    out = CliRunner().invoke(
        app, ["evaluate", str(cases), "--metric", spec, "--no-progress", "--csv", str(csv)]
    )
    assert out.exit_code == 1, out.output  # one case fails the 0.5 threshold
    text = csv.read_text(encoding="utf-8")
    assert text.count("Correctness [GEval]") == 2 and ",0.8," in text and ",0.3," in text
    out = CliRunner().invoke(app, ["evaluate", str(cases), "--metric", "g_eval", "--no-progress"])
    assert out.exit_code == 2 and "name" in out.output and "your_module:metric_object" in out.output


# -- ConversationalGEval -------------------------------------------------------------------------------------------
def _conversation(**fields: Any) -> Any:
    from deepeval.test_case import ConversationalTestCase, Turn

    turns = [
        Turn(role="user", content="My order #12 is late."),
        Turn(role="assistant", content="Sorry, it ships today."),
    ]
    return ConversationalTestCase(turns=turns, **fields)


def test_conversational_geval_adds_content_and_role_and_names_itself() -> None:
    from deepeval.metrics import ConversationalGEval
    from deepeval.test_case import MultiTurnParams as M

    given = [M.SCENARIO]
    m = ConversationalGEval(name="Helpful", criteria=CRITERIA, evaluation_params=given, model=judge())
    assert m.evaluation_params == [M.SCENARIO, M.CONTENT, M.ROLE] and given == [
        M.SCENARIO
    ]  # ours: not in place
    assert m.__name__ == "Helpful [Conversational GEval]"
    with pytest.raises(
        MissingTestCaseParamsError, match="'scenario' in a conversational test case cannot be empty"
    ):
        m.measure(_conversation())
    with pytest.raises(ValueError, match="GEval requires evaluation_params"):
        ConversationalGEval(name="H", criteria=CRITERIA, model=judge()).measure(_conversation())


@pytest.mark.parametrize(
    ("raw", "strict", "expected"), [(7, False, 0.7), (3, False, 0.3), (9, True, 0.0), (10, True, 1.0)]
)
def test_conversational_score_is_the_0_10_number_over_10_whatever_the_rubric(
    raw: int, strict: bool, expected: float
) -> None:
    from deepeval.metrics import ConversationalGEval
    from deepeval.test_case import MultiTurnParams as M

    rub = [
        Rubric(score_range=(0, 4), expected_outcome="unhelpful"),
        Rubric(score_range=(5, 8), expected_outcome="helpful"),
    ]
    llm = judge(raw)
    m = ConversationalGEval(
        name="H", criteria=CRITERIA, evaluation_params=[M.CONTENT], rubric=rub, model=llm, strict_mode=strict
    )
    assert m.measure(_conversation()) == pytest.approx(expected)
    prompt = llm.prompts[-1]
    assert (
        "0-4: unhelpful" in prompt
        and "from 0 (" in prompt
        and '"content": "Sorry, it ships today."' in prompt
    )


def test_conversational_system_one_state_holds_the_turns_and_conversation_fields() -> None:
    from deepeval.metrics import ConversationalGEval
    from deepeval.test_case import MultiTurnParams as M

    seen: list[Any] = []

    def respond(state: Any, questions: Any) -> Any:
        seen.append(state)
        from deepeval.models.system_one.schema import ScoreAnswer

        return {q: ScoreAnswer(score=5.0, probabilities={5: 1.0}, confidence=1.0) for q in questions}

    m = ConversationalGEval(
        name="H",
        criteria=CRITERIA,
        evaluation_params=[M.SCENARIO],
        system_one_model=ScriptedSystemOne(respond),
        eval_mode="system_one",
    )
    assert m.measure(_conversation(scenario="A late order.")) == pytest.approx(1.0)
    assert seen[0] == {
        "turns": [
            {"content": "My order #12 is late.", "role": "user"},
            {"content": "Sorry, it ships today.", "role": "assistant"},
        ],
        "scenario": "A late order.",
    }


# -- JevEval / ConversationalJevEval (System One only) ----------------------------------------------------------------
def _jev_answers(
    noul: float = 0.8, score: dict[int, float] | None = None, choice: dict[str, float] | None = None
) -> ScriptedSystemOne:
    from deepeval.models.system_one.schema import ChoiceAnswer, NoulAnswer, ScoreAnswer

    score = score or {1: 0.5, 2: 0.5}
    choice = choice or {"formal": 0.6, "casual": 0.3, "n/a": 0.1}

    def respond(state: Any, questions: Any) -> Any:
        best = max(choice, key=lambda k: choice[k])
        return {
            "q_0": NoulAnswer(probability=noul),
            "q_1": ScoreAnswer(
                score=sum(i * p for i, p in score.items()), probabilities=score, confidence=0.3
            ),
            "q_2": ChoiceAnswer(choice=best, probabilities=choice, confidence=0.4),
        }

    return ScriptedSystemOne(respond)


def _jev_questions() -> list[Any]:
    from deepeval.metrics.jev_eval import Choice, Noul, Score

    return [
        Noul("The output answers the question.", weight=2),
        Score("How polite is it?", levels=["rude", "neutral", "polite"]),
        Choice("Which tone?", options={"formal": 1.0, "casual": 0.5, "n/a": None}),
    ]


@pytest.mark.parametrize(
    ("choice", "strict", "expected"),
    [
        ({"formal": 0.6, "casual": 0.3, "n/a": 0.1}, False, (2 * 0.8 + 0.75 + (0.6 + 0.15) / 0.9) / 4),
        (
            {"formal": 0.2, "casual": 0.2, "n/a": 0.6},
            False,
            (2 * 0.8 + 0.75) / 3,
        ),  # the choice does not apply
        (
            {"formal": 0.6, "casual": 0.3, "n/a": 0.1},
            True,
            0.0,
        ),  # the score question's top level is not the argmax
    ],
)
def test_jev_eval_weighs_its_questions_as_deepeval(
    choice: dict[str, float], strict: bool, expected: float
) -> None:
    from deepeval.metrics import JevEval

    s1 = _jev_answers(choice=choice)
    m = JevEval(
        name="Tone", evaluation_params=IO, questions=_jev_questions(), system_one_model=s1, strict_mode=strict
    )
    assert m.measure(CASE) == pytest.approx(expected)
    assert m.__name__ == "Tone [JevEval]" and m.confidence == pytest.approx(0.3) and m.model is None
    assert [o["type"] for o in m.score_breakdown] == ["noul", "score", "choice"]  # a list, as deepeval
    assert s1.calls[0].state == {"test_case": {"input": "What is 2 + 2?", "actual_output": "4"}}
    assert list(s1.calls[0].questions) == ["q_0", "q_1", "q_2"] and "Answered by scripted-system-one" in (
        m.reason or ""
    )


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda J, q: J(name="J", evaluation_params=IO, questions=[]), ValueError, "at least one question"),
        (
            lambda J, q: J(name="J", evaluation_params=[], questions=q),
            ValueError,
            "evaluation_params cannot be an empty list",
        ),
        (
            lambda J, q: J(name="J", evaluation_params=IO, questions=["Is it good?"]),
            TypeError,
            "Noul, Score or Choice",
        ),
    ],
)
def test_jev_eval_refuses_a_bad_definition(build: Any, error: type, message: str) -> None:
    from deepeval.metrics import JevEval

    with pytest.raises(error, match=message):
        build(JevEval, _jev_questions())


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Noul"]).Noul(" "),
            "Noul statement cannot be empty",
        ),
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Score"]).Score("q", levels=["only"]),
            "between 2 and 10 levels",
        ),
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Score"]).Score("q", levels=["a", "a"]),
            "unique",
        ),
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Choice"]).Choice(
                "q", options={"a": 2.0, "b": 0.0}
            ),
            "between 0 and 1",
        ),
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Choice"]).Choice(
                "q", options={"a": None, "b": None}
            ),
            "at least one option with a credit",
        ),
        (
            lambda: __import__("deepeval.metrics.jev_eval", fromlist=["Noul"]).Noul("s", weight=0),
            "greater than 0",
        ),
    ],
)
def test_jev_questions_check_themselves(make: Any, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        make()


def test_jev_eval_without_a_system_one_judge_says_what_to_configure_and_a_missing_answer_is_an_error() -> (
    None
):
    from deepeval.errors import SystemOneError
    from deepeval.metrics import JevEval

    with pytest.raises(ConfigurationError, match="TYPESAFE_API_KEY"):
        JevEval(name="J", evaluation_params=IO, questions=_jev_questions()).measure(CASE)
    empty = ScriptedSystemOne(lambda state, questions: {})
    with pytest.raises(SystemOneError, match="no Noul answer for q_0"):
        JevEval(name="J", evaluation_params=IO, questions=_jev_questions(), system_one_model=empty).measure(
            CASE
        )


def test_jev_eval_shares_one_request_with_other_metrics_in_evaluate() -> None:
    from deepeval.metrics import JevEval

    with SystemOneServer() as srv:
        s1 = TypeSafeModel(model="jev-latest", api_key="k", base_url=srv.base_url, max_retries=0)
        a = JevEval(name="A", evaluation_params=IO, questions=_jev_questions(), system_one_model=s1)
        b = GEval(
            name="B", criteria=CRITERIA, evaluation_params=IO, system_one_model=s1, eval_mode="system_one"
        )
        res = evaluate([CASE], [a, b], **_quiet())
        assert srv.counters.requests == 1  # both metrics' questions in one /v1/systemone request
    rows = res.test_results[0].metrics_data
    assert [r.error for r in rows] == [None, None] and all(r.score is not None for r in rows)


def test_conversational_jev_eval_state_and_checks() -> None:
    from deepeval.metrics import ConversationalJevEval
    from deepeval.test_case import MultiTurnParams as M

    with pytest.raises(ValueError, match="evaluation_params cannot be empty"):
        ConversationalJevEval(name="C", questions=_jev_questions())
    s1 = _jev_answers()
    m = ConversationalJevEval(
        name="C", evaluation_params=[M.SCENARIO], questions=_jev_questions(), system_one_model=s1
    )
    assert m.__name__ == "C [Conversational JevEval]" and m.evaluation_params == [
        M.SCENARIO,
        M.CONTENT,
        M.ROLE,
    ]
    with pytest.raises(
        MissingTestCaseParamsError, match="'scenario' in a conversational test case cannot be empty"
    ):
        m.measure(_conversation())
    assert m.measure(_conversation(scenario="Late order.")) == pytest.approx(
        (2 * 0.8 + 0.75 + 0.75 / 0.9) / 4
    )
    assert s1.calls[-1].state == {
        "turns": [
            {"content": "My order #12 is late.", "role": "user"},
            {"content": "Sorry, it ships today.", "role": "assistant"},
        ],
        "test_case": {"scenario": "Late order."},
    }


# -- DAGMetric -----------------------------------------------------------------------------------------------------
def _dag_judge(binary: bool = True, choice: str = "Two", task: str = "Intro, Body") -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        name = schema.__name__
        if name == "TaskNodeOutput":
            return {"output": task}
        if name == "BinaryJudgementVerdict":
            return {"verdict": binary, "reason": "scripted"}
        if name == "NonBinaryJudgementVerdict":
            return {"verdict": choice, "reason": "scripted"}
        if name == "MetricScoreReason":
            return {"reason": "because of the path"}
        if name == "Steps":
            return {"steps": ["Check."]}
        return {"reason": "child", "score": 9}

    return ScriptedLLM(respond)


def _graph(then: Any = None) -> Any:
    from deepeval.metrics.dag import BinaryJudgementNode, DeepAcyclicGraph, NonBinaryJudgementNode, TaskNode

    task = TaskNode(
        instructions="List the headings.", output_label="Headings", evaluation_params=[P.ACTUAL_OUTPUT]
    )
    judged = task.add_node(BinaryJudgementNode(criteria="Are there headings?"))
    judged.add_verdict(False, score=0)
    if then is None:
        then = NonBinaryJudgementNode(criteria="How many are missing?", evaluation_params=[P.EXPECTED_OUTPUT])
        then.add_verdict("None", score=10)
        then.add_verdict("Two", score=4)
    judged.add_verdict(True, then=then)
    return DeepAcyclicGraph(root_nodes=[task])


@pytest.mark.parametrize(
    ("binary", "choice", "expected"), [(True, "Two", 0.4), (True, "None", 1.0), (False, "None", 0.0)]
)
def test_dag_walks_the_path_its_verdicts_choose(binary: bool, choice: str, expected: float) -> None:
    from deepeval.metrics import DAGMetric

    llm = _dag_judge(binary, choice)
    m = DAGMetric(name="Format", dag=_graph(), model=llm)
    assert m.measure(CASE) == pytest.approx(expected) and m.__name__ == "Format [DAG]"
    called = schemas(llm)
    assert called[:2] == ["TaskNodeOutput", "BinaryJudgementVerdict"] and called[-1] == "MetricScoreReason"
    assert ("NonBinaryJudgementVerdict" in called) is binary and m.reason == "because of the path"
    assert "Intro, Body" in llm.prompts[1]  # the task's output reaches its child under its label


def test_dag_needs_the_fields_its_nodes_name() -> None:
    from deepeval.metrics import DAGMetric

    with pytest.raises(MissingTestCaseParamsError, match="expected_output"):
        DAGMetric(name="F", dag=_graph(), model=_dag_judge()).measure(
            LLMTestCase(input="q", actual_output="a")
        )


def test_a_verdict_child_metric_gives_the_dag_its_score_and_reason() -> None:
    from deepeval.metrics import DAGMetric

    child = GEval(name="Child", criteria=CRITERIA, evaluation_params=IO)
    llm = _dag_judge(binary=True)
    m = DAGMetric(name="Format", dag=_graph(then=child), model=llm)
    assert (
        m.measure(CASE) == pytest.approx(0.9) and m.reason == "child"
    )  # the GEval child ran on the DAG's judge
    assert "MetricScoreReason" not in schemas(llm)


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        ("cycle", ValueError, "Cycle detected in DAG graph."),
        ("binary_one_child", ValueError, "exactly 2 children"),
        ("verdict_both", ValueError, "either a 'score' or a 'child', but not both"),
        ("verdict_score", ValueError, "between 0 and 10"),
        ("duplicate", ValueError, "Duplicate verdict found"),
        ("two_judgement_roots", ValueError, "more than one root node"),
        ("task_verdict_child", ValueError, "must not have a VerdictNode"),
        ("task_leaf", ValueError, "TaskNode 'A' leads to no VerdictNode"),
        ("verdict_to_a_task_leaf", ValueError, "TaskNode 'B' leads to no VerdictNode"),
    ],
)
def test_a_bad_graph_is_refused_at_construction(build: str, error: type, message: str) -> None:
    from deepeval.metrics.dag import (
        BinaryJudgementNode,
        DeepAcyclicGraph,
        NonBinaryJudgementNode,
        TaskNode,
        VerdictNode,
    )

    def make() -> Any:
        if build == "cycle":
            a = TaskNode(instructions="a", output_label="A", evaluation_params=[P.INPUT])
            j = a.add_node(BinaryJudgementNode(criteria="c"))
            j.add_verdict(True, then=a)
            j.add_verdict(False, score=0)
            return DeepAcyclicGraph([a])
        if build == "binary_one_child":
            j = BinaryJudgementNode(criteria="c")
            j.add_verdict(True, score=1)
            return DeepAcyclicGraph([j])
        if build == "verdict_both":
            return VerdictNode(verdict=True, score=1, child=TaskNode(instructions="a", output_label="A"))
        if build == "verdict_score":
            return VerdictNode(verdict=True, score=11)
        if build == "duplicate":
            n = NonBinaryJudgementNode(criteria="c")
            n.add_verdict("x", score=1)
            n.add_verdict("x", score=2)
            return DeepAcyclicGraph([n])
        if build == "two_judgement_roots":
            roots = []
            for _ in range(2):
                j = BinaryJudgementNode(criteria="c")
                j.add_verdict(True, score=1)
                j.add_verdict(False, score=0)
                roots.append(j)
            return DeepAcyclicGraph(roots)
        if build == "task_leaf":  # 4.3.1 builds it; its measure ends without a score
            return DeepAcyclicGraph(
                [TaskNode(instructions="a", output_label="A", evaluation_params=[P.INPUT])]
            )
        if build == "verdict_to_a_task_leaf":
            j = BinaryJudgementNode(criteria="c")
            j.add_verdict(
                True, then=TaskNode(instructions="b", output_label="B", evaluation_params=[P.INPUT])
            )
            j.add_verdict(False, score=0)
            return DeepAcyclicGraph([j])
        t = TaskNode(instructions="a", output_label="A")
        t.add_node(VerdictNode(verdict=True, score=1))
        return DeepAcyclicGraph([t])

    with pytest.raises(error, match=message):
        make()


def test_dag_hybrid_asks_system_one_for_the_judgements_and_falls_back_to_the_llm() -> None:
    from deepeval.metrics import DAGMetric
    from deepeval.models.system_one.schema import ChoiceAnswer, NoulAnswer

    def respond(state: Any, questions: Any) -> Any:
        q = questions["verdict"]
        if q.__class__.__name__ == "NoulQuestion":
            return {"verdict": NoulAnswer(probability=0.7)}
        return {
            "verdict": ChoiceAnswer(choice="None", probabilities={"None": 0.9, "Two": 0.1}, confidence=0.8)
        }

    llm = _dag_judge(binary=False, choice="Two")  # would score 0.0 if the LLM decided
    s1 = ScriptedSystemOne(respond)
    m = DAGMetric(name="F", dag=_graph(), model=llm, system_one_model=s1, eval_mode="hybrid")
    assert m.measure(CASE) == pytest.approx(1.0) and m.confidence == pytest.approx(0.4)
    assert s1.calls[0].state["text"].startswith("Headings:") and "Verdict" not in "".join(schemas(llm))
    with SystemOneServer(api_key="right") as srv:
        down = TypeSafeModel(model="jev-latest", api_key="wrong", base_url=srv.base_url, max_retries=0)
        m = DAGMetric(
            name="F", dag=_graph(), model=_dag_judge(True, "Two"), system_one_model=down, eval_mode="hybrid"
        )
        assert m.measure(CASE) == pytest.approx(0.4) and "auth" in (m.system_one_fallback_reason or "")


def test_dag_system_one_mode_without_llm_and_offline() -> None:
    from deepeval.metrics import DAGMetric
    from deepeval.metrics.dag import DeepAcyclicGraph, NonBinaryJudgementNode
    from deepeval.models.system_one.schema import ChoiceAnswer

    root = NonBinaryJudgementNode(criteria="How complete?", evaluation_params=IO)
    root.add_verdict("complete", score=10)
    root.add_verdict("partial", score=5)
    s1 = ScriptedSystemOne(
        lambda state, qs: {
            "verdict": ChoiceAnswer(choice="partial", probabilities={"partial": 1.0}, confidence=1.0)
        }
    )
    m = DAGMetric(name="C", dag=DeepAcyclicGraph([root]), system_one_model=s1, eval_mode="system_one")
    assert m.measure(CASE) == pytest.approx(0.5) and "partial" in (m.reason or "")
    with pytest.raises(ConfigurationError, match="task nodes, which need an LLM"):
        DAGMetric(name="F", dag=_graph(), system_one_model=s1, eval_mode="system_one").measure(CASE)
    with pytest.raises(ConfigurationError, match="embedded offline judge has no measured answer"):
        DAGMetric(name="C", dag=DeepAcyclicGraph([root]), eval_mode="system_one").measure(CASE)


@pytest.mark.parametrize(
    "statement",
    [
        "from deepeval.metrics import GEval, GEvalTemplate, ConversationalGEval, JevEval, ConversationalJevEval",
        "from deepeval.metrics import DAGMetric, DeepAcyclicGraph",
        "from deepeval.metrics.g_eval import GEval, GEvalTemplate, Rubric",
        "from deepeval.metrics.g_eval.g_eval import GEval, GEvalTemplate",
        "from deepeval.metrics.g_eval.utils import Rubric",
        "from deepeval.metrics.conversational_g_eval import ConversationalGEval, ConversationalGEvalTemplate",
        "from deepeval.metrics.jev_eval import JevEval, Noul, Score, Choice, QuestionOutcome",
        "from deepeval.metrics.conversational_jev_eval import ConversationalJevEval",
        "from deepeval.metrics.dag import DeepAcyclicGraph, TaskNode, BinaryJudgementNode, NonBinaryJudgementNode, VerdictNode",
        "from deepeval.metrics.dag.dag import DAGMetric, DeepAcyclicGraph",
        "from deepeval.test_case import SingleTurnParams, MultiTurnParams",
    ],
)
def test_deepeval_431_import_paths(statement: str) -> None:
    exec(statement, {})


def test_conversational_dag_reads_its_turn_window_and_checks_it() -> None:
    from deepeval.metrics import ConversationalDAGMetric, DAGMetric
    from deepeval.metrics.conversational_dag import ConversationalBinaryJudgementNode, ConversationalTaskNode
    from deepeval.metrics.dag import DeepAcyclicGraph
    from deepeval.test_case import ConversationalTestCase, Turn
    from deepeval.test_case import MultiTurnParams as M

    def graph(window: tuple[int, int]) -> Any:
        task = ConversationalTaskNode(
            instructions="Summarise.",
            output_label="Summary",
            evaluation_params=[M.ROLE, M.CONTENT],
            turn_window=window,
        )
        judged = task.add_node(ConversationalBinaryJudgementNode(criteria="Is the user satisfied?"))
        judged.add_verdict(True, score=9)
        judged.add_verdict(False, score=2)
        return DeepAcyclicGraph([task])

    turns = [
        Turn(role="user", content="hi"),
        Turn(role="assistant", content="hello"),
        Turn(role="user", content="bye"),
    ]
    case = ConversationalTestCase(turns=turns)
    llm = _dag_judge(binary=True)
    m = ConversationalDAGMetric(name="Sat", dag=graph((0, 1)), model=llm)
    assert m.measure(case) == pytest.approx(0.9) and m.__name__ == "Sat [ConversationalDAG]"
    assert '"content": "hello"' in llm.prompts[0] and '"content": "bye"' not in llm.prompts[0]
    with pytest.raises(ValueError, match="'turn_window' passed is invalid"):
        ConversationalDAGMetric(name="Sat", dag=graph((1, 3)), model=llm).measure(case)
    with pytest.raises(TypeError, match="single-turn"):
        DAGMetric(name="Sat", dag=graph((0, 1)), model=llm)
    with pytest.raises(ValueError, match="cannot mix multi and single turn nodes"):
        from deepeval.metrics.dag import TaskNode

        DeepAcyclicGraph([graph((0, 1)).root_nodes[0], TaskNode(instructions="a", output_label="A")])


# -- ArenaGEval ----------------------------------------------------------------------------------------------------
def _arena() -> Any:
    from deepeval.test_case import ArenaTestCase, Contestant

    q = "Capital of France?"
    return ArenaTestCase(
        contestants=[
            Contestant(name="small", test_case=LLMTestCase(input=q, actual_output="Lyon")),
            Contestant(name="large", test_case=LLMTestCase(input=q, actual_output="Paris")),
        ]
    )


def _arena_judge(pick: str = "Paris") -> ScriptedLLM:
    import re

    def respond(prompt: str, schema: Any) -> Any:
        if schema.__name__ == "Steps":
            return {"steps": ["Compare."]}
        blocks = re.findall(r"Contestant (\w+):\n<<<BEGIN DATA #\w+>>>\n(.*?)\n<<<END", prompt, re.S)
        win = next(name for name, body in blocks if pick in body)
        return {"winner": win, "reason": f"{win} names the right city."}

    return ScriptedLLM(respond)


def test_arena_geval_picks_the_winner_by_masked_name_and_unmasks_the_reason() -> None:
    from deepeval.metrics import ArenaGEval, BaseArenaMetric, BaseMetric

    llm = _arena_judge()
    m = ArenaGEval(name="Correct", criteria=CRITERIA, evaluation_params=IO, model=llm)
    assert m.measure(_arena()) == "large" and m.winner == "large" and m.success is True
    assert m.reason == "large names the right city." and m.__name__ == "Correct [Arena GEval]"
    assert isinstance(m, BaseArenaMetric) and not isinstance(m, BaseMetric)
    prompt = llm.prompts[-1]
    assert "small" not in prompt and "large" not in prompt and prompt.count("Capital of France?") == 1
    assert schemas(llm) == ["Steps", "Winner"]  # no second call to rewrite the reason
    m.measure(_arena())
    assert llm.prompts[-1] == prompt  # the same arena gets the same masks and order


def test_arena_checks_its_test_case() -> None:
    from deepeval.metrics import ArenaGEval
    from deepeval.test_case import ArenaTestCase, Contestant

    with pytest.raises(ValueError, match="Either 'criteria' or 'evaluation_steps' must be provided"):
        ArenaGEval(name="X", evaluation_params=IO)
    a = LLMTestCase(input="q", actual_output="a")
    with pytest.raises(ValueError, match="names must be unique"):
        ArenaTestCase(contestants=[Contestant(name="x", test_case=a), Contestant(name="x", test_case=a)])
    with pytest.raises(ValueError, match="same 'input'"):
        ArenaTestCase(
            contestants=[
                Contestant(name="x", test_case=a),
                Contestant(name="y", test_case=LLMTestCase(input="other")),
            ]
        )
    with pytest.raises(MissingTestCaseParamsError, match="expected_output"):
        ArenaGEval(
            name="X", criteria=CRITERIA, evaluation_params=[P.INPUT, P.EXPECTED_OUTPUT], model=_arena_judge()
        ).measure(_arena())


def test_with_no_judge_configured_a_geval_says_what_to_configure_not_a_similarity_score() -> None:
    """The default (no key, no eval mode) is hybrid on the embedded judge, which cannot grade free criteria."""
    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO)
    with pytest.raises(ConfigurationError, match="OPENAI_API_KEY") as err:
        m.measure(CASE)
    assert "TYPESAFE_API_KEY" in str(err.value) and m.score is None


def test_compare_counts_the_winners_over_arena_rounds() -> None:
    from deepeval import compare
    from deepeval.evaluate import ErrorConfig
    from deepeval.metrics import ArenaGEval
    from deepeval.test_case import ArenaTestCase, Contestant

    def arena(q: str, good: str) -> Any:
        outputs = {name: ("Paris" if name == good else "Lyon") for name in ("small", "large")}
        return ArenaTestCase(
            contestants=[
                Contestant(name=n, test_case=LLMTestCase(input=q, actual_output=o))
                for n, o in outputs.items()
            ]
        )

    metric = ArenaGEval(name="Correct", criteria=CRITERIA, evaluation_params=IO, model=_arena_judge())
    rounds = [arena("q1", "large"), arena("q2", "large"), arena("q3", "small")]
    assert compare(rounds, metric) == {"large": 2, "small": 1}
    missing = ArenaGEval(
        name="C", criteria=CRITERIA, evaluation_params=[P.INPUT, P.EXPECTED_OUTPUT], model=_arena_judge()
    )
    with pytest.raises(MissingTestCaseParamsError):
        compare(rounds, missing)
    assert compare(rounds, missing, error_config=ErrorConfig(ignore_errors=True)) == {}


def test_the_dag_example_of_deepevals_docs_runs_as_written() -> None:
    """deepeval's docs build the graph top-down with ``children=`` (deprecated there, accepted here); the order node
    is a child of both the task and a verdict, so it waits for both."""
    import deepeval.test_case as tc
    from deepeval.metrics import DAGMetric
    from deepeval.metrics.dag import (
        BinaryJudgementNode,
        DeepAcyclicGraph,
        NonBinaryJudgementNode,
        TaskNode,
        VerdictNode,
    )

    with pytest.warns(DeprecationWarning):
        params = tc.LLMTestCaseParams  # type: ignore[attr-defined]
    correct_order_node = NonBinaryJudgementNode(
        criteria="Are the summary headings in the correct order: 'intro' => 'body' => 'conclusion'?",
        children=[
            VerdictNode(verdict="Yes", score=10),
            VerdictNode(verdict="Two are out of order", score=4),
            VerdictNode(verdict="All out of order", score=2),
        ],
    )
    correct_headings_node = BinaryJudgementNode(
        criteria="Does the summary headings contain all three: 'intro', 'body', and 'conclusion'?",
        children=[VerdictNode(verdict=False, score=0), VerdictNode(verdict=True, child=correct_order_node)],
    )
    extract_headings_node = TaskNode(
        instructions="Extract all headings in `actual_output`",
        evaluation_params=[params.ACTUAL_OUTPUT],
        output_label="Summary headings",
        children=[correct_headings_node, correct_order_node],
    )
    dag = DeepAcyclicGraph(root_nodes=[extract_headings_node])
    llm = _dag_judge(binary=True, choice="Two are out of order", task="intro, conclusion, body")
    metric = DAGMetric(name="Format Correctness", dag=dag, model=llm)
    assert metric.measure(CASE) == pytest.approx(0.4)
    order_prompt = next(p for p in llm.prompts if "correct order" in p)
    assert "Summary headings:" in order_prompt and "intro, conclusion, body" in order_prompt
    assert schemas(llm).count("NonBinaryJudgementVerdict") == 1  # run once, after both parents


def test_upload_and_pull_need_confident_ai() -> None:
    from deepeval.errors import ConfidentAIRequiredError

    m = GEval(name="X", criteria=CRITERIA, evaluation_params=IO)
    with pytest.raises(ConfidentAIRequiredError, match="upload"):
        m.upload()
    with pytest.raises(ValueError, match="pull"):  # also a ValueError, as deepeval's without a key
        m.pull()


def _score_reply_with_logprobs(request: dict[str, Any]) -> Any:
    """Steps for the steps prompt; for the score prompt a JSON reply whose score token is 8 or 6 at even odds."""
    if '{"steps"' in request["messages"][-1]["content"]:
        return {"content": {"steps": ["Check that the answer is correct."]}}
    head, tail = '{"reason": "right", "score": ', "}"
    even = math.log(0.5)
    return {
        "content": head + "8" + tail,
        "logprobs": [{head: 0.0}, {"8": even, "6": even - 1e-9}, {tail: 0.0}],
    }


@pytest.mark.parametrize("provider", ["ollama", "gemini"])
def test_geval_weights_the_score_on_ollama_and_gemini_judges(provider: str) -> None:
    """GEval's logprob-weighted score through the native Ollama / Gemini wire (it once raised TypeError there)."""
    from deepeval.models import GeminiModel, OllamaModel
    from deepeval.testing import GeminiServer, OllamaServer

    clear_steps_cache()
    server: Any = (OllamaServer if provider == "ollama" else GeminiServer)(_score_reply_with_logprobs)
    with server:
        judge = (
            OllamaModel(model="llama3", base_url=server.root_url)
            if provider == "ollama"
            else GeminiModel(model="gemini-2.5-flash", api_key="g-key", base_url=server.base_url)
        )
        metric = GEval(
            name="Correct",
            criteria="Is the answer correct?",
            evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
            model=judge,
        )
        metric.measure(LLMTestCase(input="2+2?", actual_output="4"))
    assert metric.error is None
    assert metric.score == pytest.approx(0.7, abs=1e-6)
    assert server.counters.requests == 2  # the steps, then one scored reply: no fallback re-ask
