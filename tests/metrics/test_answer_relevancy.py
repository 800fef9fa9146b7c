from __future__ import annotations

import asyncio

import pytest

from deepeval.errors import (
    InvalidEvalModeError,
    JudgeError,
    MissingTestCaseParamsError,
    StructuredOutputError,
    SystemOneError,
)
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import block, calls_by_schema, router

OUT = "We offer a 30-day full refund. Our shoes are red. Returns may need a receipt."
STATEMENTS = ["We offer a 30-day full refund.", "Our shoes are red.", "Returns may need a receipt."]
CASE = LLMTestCase(input="What if these shoes don't fit?", actual_output=OUT)


def llm_with(verdicts: list[str], **kw: object) -> ScriptedLLM:
    return ScriptedLLM(router(statements=STATEMENTS, verdicts=verdicts, reason="because reasons"), **kw)  # type: ignore[arg-type]


# --- llm mode -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("verdicts", "score"),
    [
        (["yes", "yes", "yes"], 1.0),
        (["yes", "no", "no"], 1 / 3),
        (["yes", "no", "idk"], 2 / 3),  # borderline counts as relevant
        (["no", "no", "no"], 0.0),
        (["Yes ", "yes.", "YES"], 1.0),  # deepeval miscounts these
        (["No.", "Yes, it answers", '"idk"'], 2 / 3),
    ],
)
def test_llm_scores(verdicts: list[str], score: float) -> None:
    llm = llm_with(verdicts)
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(CASE) == pytest.approx(score)
    assert metric.score == pytest.approx(score)
    assert metric.success is (score >= 0.5)
    assert metric.reason == "because reasons"
    assert metric.error is None
    assert metric.evaluation_model == "scripted-llm"
    assert metric.confidence is None  # no System One answer used
    assert metric.system_one_fallback_reason is None
    # statements, verdicts, reason: one call each
    assert calls_by_schema(llm) == {"Statements": 1, "Verdicts": 1, "AnswerRelevancyScoreReason": 1}


def test_breakdown_counts() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "no", "idk"]), eval_mode="llm")
    metric.measure(CASE)
    assert metric.score_breakdown == {
        "statements": 3,
        "yes": 1,
        "no": 1,
        "borderline": 1,
        "decided_by_system_one": 0,
        "decided_by_llm": 3,
        "weighted_by_probability": False,
    }


def test_no_statements_scores_one_without_verdict_call() -> None:
    llm = ScriptedLLM(router(statements=[]))
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(LLMTestCase(input="hi", actual_output="Hmm.")) == 1.0
    assert calls_by_schema(llm) == {"Statements": 1}
    assert metric.reason is not None and "no statements" in metric.reason


def test_empty_output_raises_missing_params() -> None:
    llm = llm_with(["yes"])
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    with pytest.raises(MissingTestCaseParamsError, match="actual_output") as info:
        metric.measure(LLMTestCase(input="q", actual_output=""))
    assert "Answer Relevancy" in str(info.value)
    # as deepeval 4.3.1: a measure that raised leaves no score, verdict or error on the metric
    assert (metric.score, metric.success, metric.error) == (None, None, None)
    assert llm.call_count == 0


def test_missing_output_raises_naming_field_and_metric() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes"]), eval_mode="llm")
    with pytest.raises(MissingTestCaseParamsError, match=r"Answer Relevancy.*actual_output"):
        metric.measure(LLMTestCase(input="q"))


@pytest.mark.parametrize("mode", ["llm", "hybrid"])
def test_whitespace_output_scores_zero_without_judge_calls(mode: str) -> None:
    llm = llm_with(["yes"])
    s1 = ScriptedSystemOne(lambda s, q: {})
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode=mode)
    assert metric.measure(LLMTestCase(input="q", actual_output="  \n\t ")) == 0.0
    assert metric.success is False
    assert metric.reason is not None and "blank" in metric.reason
    assert llm.call_count == 0 and s1.call_count == 0


def test_include_reason_false_makes_no_reason_call() -> None:
    llm = llm_with(["yes", "no", "yes"])
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm", include_reason=False)
    assert metric.measure(CASE) == pytest.approx(2 / 3)
    assert metric.reason is None
    assert calls_by_schema(llm) == {"Statements": 1, "Verdicts": 1}


def test_strict_mode() -> None:
    metric = AnswerRelevancyMetric(
        model=llm_with(["yes", "yes", "no"]), eval_mode="llm", strict_mode=True, threshold=0.2
    )
    assert metric.threshold == 1.0
    assert metric.measure(CASE) == 0.0
    assert metric.success is False
    perfect = AnswerRelevancyMetric(model=llm_with(["yes", "idk", "yes"]), eval_mode="llm", strict_mode=True)
    assert perfect.measure(CASE) == 1.0 and perfect.success is True


def test_threshold_none_is_score_only() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["no", "no", "no"]), eval_mode="llm", threshold=None)
    assert metric.measure(CASE) == 0.0
    assert metric.success is None
    assert metric.is_successful() is None  # as deepeval: no verdict in score-only mode


def test_threshold_is_a_minimum() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "no", "no"]), eval_mode="llm", threshold=1 / 3)
    metric.measure(CASE)
    assert metric.success is True


def test_wrong_verdict_count_is_reasked_then_accepted() -> None:
    replies = iter(
        [
            {"verdicts": [{"verdict": "yes"}]},
            {"verdicts": [{"verdict": "yes"}, {"verdict": "no"}, {"verdict": "no"}]},
        ]
    )

    def respond(prompt: str, schema: object) -> object:
        name = getattr(schema, "__name__", None)
        if name == "Statements":
            return {"statements": STATEMENTS}
        if name == "Verdicts":
            return next(replies)
        return {"reason": "r"}

    llm = ScriptedLLM(respond)
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(CASE) == pytest.approx(1 / 3)
    assert calls_by_schema(llm)["Verdicts"] == 2
    reask = [c.prompt for c in llm.calls if getattr(c.schema, "__name__", "") == "Verdicts"][1]
    assert "expected exactly 3 verdicts" in reask


def test_invalid_json_reasked_then_clear_error() -> None:
    def respond(prompt: str, schema: object) -> object:
        if getattr(schema, "__name__", None) == "Statements":
            return {"statements": STATEMENTS}
        return "Sure! Here are my verdicts: maybe, perhaps"

    llm = ScriptedLLM(respond)
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    with pytest.raises(StructuredOutputError, match="scripted-llm") as info:
        metric.measure(CASE)
    assert calls_by_schema(llm)["Verdicts"] == 2  # asked, then re-asked once
    assert "Verdicts" in str(info.value)
    assert (metric.success, metric.error) == (None, None)


def test_invalid_json_repaired_without_reask() -> None:
    def respond(prompt: str, schema: object) -> object:
        name = getattr(schema, "__name__", None)
        if name == "Statements":
            return '```json\n{"statements": ["a", "b"],}\n```'
        if name == "Verdicts":
            return "{'verdicts': [{'verdict': 'yes'}, {'verdict': 'no'}]"
        return {"reason": "r"}

    llm = ScriptedLLM(respond)
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(CASE) == 0.5
    assert llm.call_count == 3


def test_cost_and_tokens_copied_from_judges() -> None:
    def respond(prompt: str, schema: object) -> object:
        return (router(statements=STATEMENTS, verdicts=["yes", "no", "yes"])(prompt, schema), 0.001)

    metric = AnswerRelevancyMetric(model=ScriptedLLM(respond, tokens=(100, 20)), eval_mode="llm")
    metric.measure(CASE)
    assert metric.evaluation_cost == pytest.approx(0.003)
    assert (metric.input_tokens, metric.output_tokens) == (300, 60)


def test_cost_unknown_is_none() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "yes", "yes"]), eval_mode="llm")
    metric.measure(CASE)
    assert metric.evaluation_cost is None and metric.input_tokens is None


def test_verbose_logs(capsys: pytest.CaptureFixture[str]) -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "no", "idk"]), eval_mode="llm", verbose_mode=True)
    metric.measure(CASE)
    logs = metric.verbose_logs
    assert logs is not None
    assert "Eval mode: llm" in logs and "Statements:" in logs and "Our shoes are red." in logs
    assert '"verdict": "borderline"' in logs
    assert logs in capsys.readouterr().out


def test_sync_and_async_identical_and_sync_uses_generate() -> None:
    a_llm, s_llm = llm_with(["yes", "no", "idk"]), llm_with(["yes", "no", "idk"])
    a = AnswerRelevancyMetric(model=a_llm, eval_mode="llm")
    s = AnswerRelevancyMetric(model=s_llm, eval_mode="llm", async_mode=False)
    assert a.measure(CASE) == s.measure(CASE)
    for attr in (
        "score",
        "reason",
        "success",
        "score_breakdown",
        "evaluation_model",
        "verbose_logs",
        "confidence",
    ):
        assert getattr(a, attr) == getattr(s, attr), attr
    assert a_llm.prompts == s_llm.prompts
    assert {c.method for c in a_llm.calls} == {"a_generate"}
    assert {c.method for c in s_llm.calls} == {"generate"}


def test_measure_inside_running_loop() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "no", "no"]), eval_mode="llm")

    async def main() -> float:
        sync_score = metric.measure(CASE)  # sync call inside a running loop (Jupyter, FastAPI)
        async_score = await metric.a_measure(CASE)
        assert sync_score == async_score
        return async_score

    assert asyncio.run(main()) == pytest.approx(1 / 3)


def test_custom_template_is_used_and_versioned() -> None:
    class Template:
        PROMPT_VERSION = "mine-1"

        @staticmethod
        def generate_statements(actual_output: str) -> str:
            return f"SPLIT {actual_output}"

        @staticmethod
        def generate_verdicts(input: str, statements: list[str]) -> str:
            return f"JUDGE {len(statements)}"

        @staticmethod
        def generate_reason(input: str, score: float, judged: list[dict[str, object]]) -> str:
            return "EXPLAIN"

    llm = llm_with(["yes", "yes", "no"])
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm", evaluation_template=Template)
    metric.measure(CASE)
    assert llm.prompts == [f"SPLIT {OUT}", "JUDGE 3", "EXPLAIN"]
    assert metric.cache_config()["prompt_version"] == "mine-1"


# --- hybrid -----------------------------------------------------------------------------------------------------------
def s1_probs(*ps: float, **kw: object) -> ScriptedSystemOne:
    return ScriptedSystemOne(lambda state, qs: {qid: p for qid, p in zip(qs, ps, strict=False)}, **kw)  # type: ignore[arg-type]


def test_hybrid_one_request_and_bands() -> None:
    llm = llm_with(["no", "no", "no"])  # must not be asked for verdicts
    s1 = s1_probs(0.9, 0.5, 0.2, model_version="jev-2026-01", cost=0.0004)
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(CASE) == pytest.approx(2 / 3)  # yes, borderline, no
    assert s1.call_count == 1
    assert calls_by_schema(llm) == {"Statements": 1, "AnswerRelevancyScoreReason": 1}
    assert metric.confidence == pytest.approx(0.0)  # min |2p-1| = |2*0.5-1|
    assert metric.evaluation_model == "scripted-llm + scripted-system-one (jev-2026-01)"
    assert metric.evaluation_cost == pytest.approx(0.0004)
    assert metric.score_breakdown is not None
    assert metric.score_breakdown["decided_by_system_one"] == 3 and metric.score_breakdown["borderline"] == 1
    qs = s1.calls[0].questions
    assert [q.kind for q in qs.values()] == ["statement_relevant"] * 3
    assert [q.data["statement"] for q in qs.values()] == STATEMENTS
    assert all(q.data["input"] == CASE.input for q in qs.values())
    assert all("Our shoes are red." in qs["s1"].instructions for _ in [0])
    # shared content once, in the state; each question quotes only its statement, between markers
    assert s1.calls[0].state == {"note": STATE_NOTE, "input": CASE.input}
    for q in qs.values():
        assert block(q.instructions, "STATEMENT") == q.data["statement"]
        assert CASE.input not in q.instructions and "material under evaluation" not in q.instructions


def test_hybrid_reason_prompt_sees_statements_with_probabilities() -> None:
    llm = llm_with(["yes"])
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1_probs(0.91, 0.12, 0.8), eval_mode="hybrid")
    metric.measure(CASE)
    reason_prompt = llm.prompts[-1]
    assert '"statement": "Our shoes are red."' in reason_prompt
    assert '"p_yes": 0.12' in reason_prompt and '"p_yes": 0.91' in reason_prompt


def test_hybrid_confidence_is_min_over_answers() -> None:
    metric = AnswerRelevancyMetric(
        model=llm_with(["yes"]), system_one_model=s1_probs(0.95, 0.1, 0.7), eval_mode="hybrid"
    )
    metric.measure(CASE)
    assert metric.confidence == pytest.approx(0.4)  # |2*0.7-1|


@pytest.mark.parametrize(
    "kind", ["timeout", "connection", "rate_limit", "context_limit", "server", "unsupported_question"]
)
def test_hybrid_failure_falls_back_to_llm(kind: str) -> None:
    llm = llm_with(["yes", "no", "yes"])
    s1 = ScriptedSystemOne([SystemOneError("upstream said no", kind=kind, retryable=True)])
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(CASE) == pytest.approx(2 / 3)
    assert metric.system_one_fallback_reason == (
        f"System One model scripted-system-one: {kind}: upstream said no; 3 of 3 decision(s) made by the LLM "
        "(scripted-llm) instead"
    )
    assert calls_by_schema(llm) == {"Statements": 1, "Verdicts": 1, "AnswerRelevancyScoreReason": 1}
    assert metric.confidence is None
    assert metric.evaluation_model == "scripted-llm"


def test_hybrid_missing_answers_go_to_llm_for_those_only() -> None:
    def verdicts(prompt: str) -> list[str]:
        # only the missing statement is sent to the LLM
        assert "Our shoes are red." in prompt and "30-day" not in prompt.split("statements")[-1]
        return ["no"]

    llm = ScriptedLLM(router(statements=STATEMENTS, verdicts=verdicts))
    s1 = ScriptedSystemOne(lambda state, qs: {"s0": 0.9, "s2": 0.8})
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(CASE) == pytest.approx(2 / 3)
    assert metric.system_one_fallback_reason is not None
    assert "missing_answer: no answer for 1 of 3 question(s); 1 of 3 decision(s) made by the LLM" in (
        metric.system_one_fallback_reason
    )
    assert metric.score_breakdown is not None
    assert (metric.score_breakdown["decided_by_llm"], metric.score_breakdown["decided_by_system_one"]) == (
        1,
        2,
    )
    assert metric.confidence == pytest.approx(0.6)  # answers used: 0.9 -> 0.8, 0.8 -> 0.6
    assert metric.evaluation_model == "scripted-llm + scripted-system-one"


def test_hybrid_auth_error_falls_back_and_disables() -> None:
    llm = llm_with(["no", "no", "yes"])
    s1 = ScriptedSystemOne([SystemOneError("invalid key", kind="auth", status_code=401)])
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(CASE) == pytest.approx(1 / 3)
    assert (
        metric.system_one_fallback_reason is not None
        and "auth: invalid key" in metric.system_one_fallback_reason
    )


def test_hybrid_non_fallback_error_propagates() -> None:
    s1 = ScriptedSystemOne([SystemOneError("bad request body", kind="bad_request", status_code=400)])
    metric = AnswerRelevancyMetric(model=llm_with(["yes"] * 3), system_one_model=s1, eval_mode="hybrid")
    with pytest.raises(SystemOneError, match="bad request body"):
        metric.measure(CASE)
    assert (metric.success, metric.error) == (None, None)


def test_hybrid_strict_and_threshold() -> None:
    metric = AnswerRelevancyMetric(
        model=llm_with(["yes"]),
        system_one_model=s1_probs(0.9, 0.9, 0.6),
        eval_mode="hybrid",
        strict_mode=True,
    )
    assert metric.measure(CASE) == 1.0  # 0.6 is borderline, counted relevant
    metric = AnswerRelevancyMetric(
        model=llm_with(["yes"]),
        system_one_model=s1_probs(0.9, 0.9, 0.3),
        eval_mode="hybrid",
        strict_mode=True,
    )
    assert metric.measure(CASE) == 0.0 and metric.success is False


def test_hybrid_include_reason_false() -> None:
    llm = llm_with(["yes"])
    metric = AnswerRelevancyMetric(
        model=llm, system_one_model=s1_probs(0.9, 0.1, 0.9), eval_mode="hybrid", include_reason=False
    )
    metric.measure(CASE)
    assert metric.reason is None
    assert calls_by_schema(llm) == {"Statements": 1}


def test_hybrid_sync_path_uses_decide() -> None:
    s1a, s1s = s1_probs(0.9, 0.2, 0.5), s1_probs(0.9, 0.2, 0.5)
    a = AnswerRelevancyMetric(model=llm_with(["yes"]), system_one_model=s1a, eval_mode="hybrid")
    s = AnswerRelevancyMetric(
        model=llm_with(["yes"]), system_one_model=s1s, eval_mode="hybrid", async_mode=False
    )
    assert a.measure(CASE) == s.measure(CASE) == pytest.approx(2 / 3)
    assert (a.reason, a.confidence, a.score_breakdown) == (s.reason, s.confidence, s.score_breakdown)
    assert [c.method for c in s1a.calls] == ["a_decide"] and [c.method for c in s1s.calls] == ["decide"]


# --- system_one -----------------------------------------------------------------------------------------------------
def test_system_one_formula_and_reason() -> None:
    s1 = ScriptedSystemOne(
        lambda state, qs: {"all_relevant": 0.8, "addresses_input": 0.8, "relevant_share": 1.7},
        model_version="jev-2026-01",
        cost=0.00002,
    )
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    assert metric.measure(CASE) == pytest.approx((2 * 0.8 + 0.8 + 1.7 / 3) / 4)
    assert round(metric.score or 0, 4) == 0.7417
    assert s1.call_count == 1
    call = s1.calls[0]
    # system_one: the fields are the data and no question quotes content, so the state carries no note
    assert call.state == {"input": CASE.input, "actual_output": OUT}
    assert {qid: q.kind for qid, q in call.questions.items()} == {
        "all_relevant": "answer_relevancy.all_relevant",
        "addresses_input": "answer_relevancy.addresses_input",
        "relevant_share": "answer_relevancy.relevant_share",
    }
    assert len(call.questions["relevant_share"].levels) == 4
    assert metric.evaluation_model == "scripted-system-one (jev-2026-01)"
    assert metric.evaluation_cost == pytest.approx(0.00002)
    assert metric.confidence == pytest.approx(0.6)
    assert metric.reason is not None
    assert "probably yes (P(yes)=0.80, confidence 0.60)" in metric.reason
    assert "expected level 1.70 of 3" in metric.reason
    assert metric.score_breakdown is not None
    assert metric.score_breakdown["questions"]["relevant_share"]["value"] == pytest.approx(0.5667)


def test_system_one_strict_every_question_must_pass() -> None:
    def s1(values: dict[str, float]) -> ScriptedSystemOne:
        return ScriptedSystemOne(lambda state, qs: values)

    all_pass = AnswerRelevancyMetric(
        system_one_model=s1({"all_relevant": 0.6, "addresses_input": 0.5, "relevant_share": 2.6}),
        eval_mode="system_one",
        strict_mode=True,
    )
    assert all_pass.measure(CASE) == 1.0  # 2.6 -> top level most probable
    one_fails = AnswerRelevancyMetric(
        system_one_model=s1({"all_relevant": 0.99, "addresses_input": 0.99, "relevant_share": 2.4}),
        eval_mode="system_one",
        strict_mode=True,
    )
    assert one_fails.measure(CASE) == 0.0 and one_fails.success is False
    assert one_fails.reason is not None and "strict mode" in one_fails.reason


def test_system_one_missing_answer_is_an_error_without_fallback() -> None:
    llm = llm_with(["yes"])
    s1 = ScriptedSystemOne(lambda state, qs: {"all_relevant": 0.8})
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="system_one")
    with pytest.raises(SystemOneError, match="addresses_input, relevant_share"):
        metric.measure(CASE)
    assert llm.call_count == 0 and metric.success is None


def test_system_one_error_surfaces() -> None:
    s1 = ScriptedSystemOne([SystemOneError("timed out", kind="timeout", retryable=True)])
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    with pytest.raises(JudgeError, match="timed out"):
        metric.measure(CASE)
    assert (metric.score, metric.success, metric.error) == (None, None, None)


def test_system_one_include_reason_false_and_threshold_none() -> None:
    s1 = ScriptedSystemOne(
        lambda state, qs: {"all_relevant": 0.1, "addresses_input": 0.1, "relevant_share": 0.0}
    )
    metric = AnswerRelevancyMetric(
        system_one_model=s1, eval_mode="System_One", include_reason=False, threshold=None
    )
    assert metric.measure(CASE) == pytest.approx(0.1 * 3 / 4)
    assert metric.reason is None and metric.success is None


def test_invalid_eval_mode_raises_at_construction() -> None:
    with pytest.raises(InvalidEvalModeError):
        AnswerRelevancyMetric(eval_mode="fast")
    with pytest.raises(ValueError):
        AnswerRelevancyMetric(eval_mode="nonsense")


def test_verdicts_name_each_statement_and_who_decided_it() -> None:
    def verdicts(prompt: str) -> list[str]:
        return ["no"]

    llm = ScriptedLLM(router(statements=STATEMENTS, verdicts=verdicts))
    s1 = ScriptedSystemOne(lambda state, qs: {"s0": 0.9, "s2": 0.2})
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    metric.measure(CASE)
    assert metric.verdicts == [
        {"statement": STATEMENTS[0], "verdict": "yes", "decided_by": "system_one", "p_yes": 0.9},
        {"statement": STATEMENTS[1], "verdict": "no", "decided_by": "llm_fallback", "reason": "r0"},
        {"statement": STATEMENTS[2], "verdict": "no", "decided_by": "system_one", "p_yes": 0.2},
    ]
    llm_only = AnswerRelevancyMetric(model=llm_with(["yes", "no", "idk"]), eval_mode="llm")
    llm_only.measure(CASE)
    assert [(v["verdict"], v["decided_by"]) for v in llm_only.verdicts or []] == [
        ("yes", "llm"),
        ("no", "llm"),
        ("borderline", "llm"),
    ]


def test_statements_and_verdicts_read_as_deepeval_attributes_after_a_measure() -> None:
    metric = AnswerRelevancyMetric(model=llm_with(["yes", "no", "idk"]), eval_mode="llm")
    metric.measure(CASE)
    assert metric.statements == STATEMENTS
    assert metric.verdicts is not None
    assert [(v.verdict, v.reason) for v in metric.verdicts] == [
        ("yes", "r0"),
        ("no", "r1"),
        ("borderline", "r2"),
    ]
