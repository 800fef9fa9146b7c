from __future__ import annotations

import pytest

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError, InvalidEvalModeError, SystemOneError
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics.base_metric import SystemOnePlan
from deepeval.metrics.delimit import STATE_NOTE
from deepeval.models.system_one.schema import NoulAnswer, ScoreAnswer, SystemOneAnswers
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import FakeExtractor, router

CASE = LLMTestCase(input="q?", actual_output="A. B.", retrieval_context=["ctx"])
S1_VALUES = {"all_relevant": 0.8, "addresses_input": 0.8, "relevant_share": 1.7}


def test_constructing_touches_no_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a: object, **k: object) -> None:
        raise AssertionError("resolved at construction")

    monkeypatch.setattr("deepeval.metrics._engine.judges.build_llm", boom)
    monkeypatch.setattr("deepeval.metrics._engine.judges.build_system_one", boom)
    for cls in (AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric):
        cls(model="gpt-4", system_one_model="jev-latest", eval_mode="hybrid")


def test_judges_resolved_once_and_shared_by_fresh_copies() -> None:
    llm = ScriptedLLM(router(statements=["A."], verdicts=["yes"]))
    metric = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    metric.measure(CASE)
    judges = metric.judges()
    clone = metric.fresh_copy()
    assert clone.score is None and clone.reason is None
    assert clone.judges() is judges
    clone.measure(CASE)
    assert clone.score == metric.score == 1.0


def test_llm_mode_without_llm_is_a_clear_error() -> None:
    metric = AnswerRelevancyMetric(eval_mode="llm")
    with pytest.raises(ConfigurationError) as info:
        metric.measure(CASE)
    msg = str(info.value)
    assert "OPENAI_API_KEY" in msg and "model=" in msg and "hybrid" in msg and "system_one" in msg
    assert (metric.success, metric.error) == (None, None)  # as deepeval 4.3.1 after a measure that raised


def test_default_mode_without_llm_is_hybrid_and_with_model_is_llm() -> None:
    s1 = ScriptedSystemOne(lambda s, q: dict.fromkeys(q, 0.9))
    metric = AnswerRelevancyMetric(
        system_one_model=s1, extractor=FakeExtractor(statements={"A. B.": ["A.", "B."]})
    )
    assert metric.measure(CASE) == 1.0
    assert metric.judges().mode is EvalMode.HYBRID
    assert (
        metric.reason == "The score is 1.00 because all 2 statements of the output are relevant to the input."
    )
    with_model = AnswerRelevancyMetric(model=ScriptedLLM(router(statements=[])))
    assert with_model.judges().mode is EvalMode.LLM


def test_env_eval_mode_used_and_invalid_env_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "SYSTEM_ONE")
    s1 = ScriptedSystemOne(lambda s, q: S1_VALUES)
    assert round(AnswerRelevancyMetric(system_one_model=s1).measure(CASE), 4) == 0.7417
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "turbo")
    metric = AnswerRelevancyMetric(system_one_model=s1)
    with pytest.raises(InvalidEvalModeError, match="DEEPEVAL_EVAL_MODE"):
        metric.measure(CASE)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "0.5", True])
def test_invalid_threshold(bad: object) -> None:
    with pytest.raises(ValueError, match="threshold"):
        AnswerRelevancyMetric(threshold=bad)  # type: ignore[arg-type]


def test_threshold_above_one_is_accepted_and_never_passes() -> None:
    """deepeval 4.3.1 accepts any number; a score in [0, 1] cannot reach 1.01."""
    metric = AnswerRelevancyMetric(model=ScriptedLLM(router()), threshold=1.01)
    assert metric.threshold == 1.01


def test_wrong_test_case_type_is_a_value_error_and_a_type_error() -> None:
    from deepeval.errors import WrongTestCaseTypeError
    from deepeval.metrics import KnowledgeRetentionMetric
    from deepeval.test_case import ConversationalTestCase, Turn

    with pytest.raises(ValueError, match="evaluates a ConversationalTestCase") as info:
        KnowledgeRetentionMetric(model=ScriptedLLM(router())).measure(CASE)
    assert isinstance(info.value, (WrongTestCaseTypeError, TypeError))
    conv = ConversationalTestCase(turns=[Turn(role="user", content="hi")])
    with pytest.raises(ValueError, match="evaluates an LLMTestCase"):
        AnswerRelevancyMetric(model=ScriptedLLM(router())).measure(conv)  # type: ignore[arg-type]


def test_structured_output_error_is_a_value_error() -> None:
    from deepeval.errors import JudgeError, StructuredOutputError

    assert issubclass(StructuredOutputError, ValueError) and issubclass(StructuredOutputError, JudgeError)


def test_cache_config_names_mode_judges_and_versions() -> None:
    llm = ScriptedLLM(router(), name="judge-a")
    s1 = ScriptedSystemOne(lambda s, q: {}, name="jev-x")
    hybrid = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid").cache_config()
    llm_cfg = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="llm").cache_config()
    assert hybrid["eval_mode"] == "hybrid" and llm_cfg["eval_mode"] == "llm"
    assert hybrid["judges"] == {"llm": "judge-a", "system_one": "jev-x", "extractor": None}
    assert llm_cfg["judges"]["system_one"] is None
    from deepeval.metrics.answer_relevancy.prompts import PROMPT_VERSION as AR_VERSION
    from deepeval.metrics.knowledge_retention.prompts import PROMPT_VERSION as KR_VERSION

    assert hybrid["prompt_version"] == AR_VERSION and AR_VERSION.startswith("answer_relevancy/")
    assert hybrid["question_set_version"] == "answer_relevancy-q/2026-5"
    assert hybrid != llm_cfg
    kr = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="system_one").cache_config()
    assert kr["prompt_version"] == KR_VERSION and kr["judges"]["system_one"] == "jev-x"
    broken = AnswerRelevancyMetric(eval_mode="llm").cache_config()  # no LLM: still computable
    assert broken["eval_mode"] == "llm" and broken["judges"] == "unresolved: ConfigurationError"


def test_system_one_plan_and_finish_for_the_runner() -> None:
    s1 = ScriptedSystemOne(lambda s, q: {})
    metric = ContextualRelevancyMetric(system_one_model=s1, eval_mode="system_one", threshold=0.7)
    plan = metric.system_one_plan(CASE)
    assert isinstance(plan, SystemOnePlan)
    assert plan.model is s1 and plan.state == {
        "input": "q?",
        "retrieval_context": ["ctx"],
    }
    assert list(plan.questions) == ["all_relevant", "every_node_relevant", "relevant_share"]
    answers = SystemOneAnswers(
        nouls={
            "all_relevant": NoulAnswer(probability=0.8),
            "every_node_relevant": NoulAnswer(probability=0.8),
        },
        scores={"relevant_share": ScoreAnswer(score=1.7, probabilities={1: 0.3, 2: 0.7}, confidence=0.45)},
        model="jev-2026-02",
        input_tokens=900,
        output_tokens=0,
    )
    score = metric.system_one_finish(CASE, answers, 0.0000378)
    assert round(score, 4) == 0.7417 and metric.success is True
    assert metric.confidence == pytest.approx(0.45)
    assert metric.evaluation_cost == pytest.approx(0.0000378)
    assert (metric.input_tokens, metric.output_tokens) == (900, 0)
    assert metric.evaluation_model == "scripted-system-one (jev-2026-02)"
    assert s1.call_count == 0  # the runner made the request
    # not in system_one mode -> no plan
    assert AnswerRelevancyMetric(model=ScriptedLLM(router()), eval_mode="llm").system_one_plan(CASE) is None


def test_system_one_finish_missing_answer_sets_error() -> None:
    metric = AnswerRelevancyMetric(
        system_one_model=ScriptedSystemOne(lambda s, q: {}), eval_mode="system_one"
    )
    with pytest.raises(SystemOneError, match="no fallback"):
        metric.system_one_finish(CASE, SystemOneAnswers(), None)
    assert (metric.score, metric.success, metric.error) == (None, None, None)


def test_system_one_plan_checks_params() -> None:
    metric = KnowledgeRetentionMetric(
        system_one_model=ScriptedSystemOne(lambda s, q: {}), eval_mode="system_one"
    )
    with pytest.raises(TypeError):
        metric.system_one_plan(CASE)
    turns = [Turn(role="user", content="hi"), Turn(role="assistant", content="hello")]
    plan = metric.system_one_plan(ConversationalTestCase(turns=turns))
    assert plan is not None
    assert plan.state == {
        "turns": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
    }
    # nothing to check (no reply to the user): no request, a_measure scores it
    assert metric.system_one_plan(ConversationalTestCase(turns=turns[:1])) is None


def test_error_message_never_contains_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-SECRET-123456789"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    s1 = ScriptedSystemOne([SystemOneError(f"server echoed {secret}", kind="bad_request")])
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    with pytest.raises(SystemOneError):
        metric.measure(CASE)
    assert metric.error is None  # the exception carries the error; evaluate() puts it in the row, redacted:
    from deepeval import evaluate
    from deepeval.evaluate import CacheConfig, DisplayConfig, ErrorConfig

    s1 = ScriptedSystemOne([SystemOneError(f"server echoed {secret}", kind="bad_request")])
    result = evaluate(
        [CASE],
        [AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False),
        error_config=ErrorConfig(ignore_errors=True),
    )
    row = result.test_results[0].metrics_data[0]
    assert row.error is not None and secret not in row.error and "***" in row.error


def test_verbose_system_one_logs(capsys: pytest.CaptureFixture[str]) -> None:
    s1 = ScriptedSystemOne(lambda s, q: S1_VALUES)
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one", verbose_mode=True)
    metric.measure(CASE)
    assert metric.verbose_logs is not None
    assert "Question all_relevant (weight 2)" in metric.verbose_logs and "'p_yes': 0.8" in metric.verbose_logs
    assert "'expected_level': 1.7" in metric.verbose_logs
    assert "Question relevant_share" in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["llm", "hybrid"])
def test_include_reason_false_skips_reason_call_for_every_metric(mode: str) -> None:
    from .helpers import calls_by_schema

    turns = [Turn(role="user", content="I am Ann."), Turn(role="assistant", content="Hi Ann.")]
    cases = [
        (AnswerRelevancyMetric, CASE, router(statements=["A."], verdicts=["yes"])),
        (ContextualRelevancyMetric, CASE, router(statements=["ctx"], verdicts=["no"])),
        (
            KnowledgeRetentionMetric,
            ConversationalTestCase(turns=turns),
            router(facts={"I am Ann.": ["The user is Ann."]}, turn_verdicts={"Hi Ann.": "no"}),
        ),
    ]
    for cls, tc, responder in cases:
        for include in (True, False):
            llm = ScriptedLLM(responder)
            s1 = ScriptedSystemOne(lambda s, q: dict.fromkeys(q, 0.1))
            metric = cls(model=llm, system_one_model=s1, eval_mode=mode, include_reason=include)
            metric.measure(tc)
            assert sum(n for k, n in calls_by_schema(llm).items() if k.endswith("ScoreReason")) == (
                1 if include else 0
            ), (cls, include)
            assert (metric.reason is not None) is include


def test_system_one_plans_carry_only_test_case_fields_so_the_runner_can_merge_them() -> None:
    """A system_one plan's state is the test case's fields and nothing else (no question quotes content, so no data
    note is billed with every request); states of AR and CR on one test case agree on every shared key (the
    runner's merge condition)."""
    s1 = ScriptedSystemOne(lambda s, q: {})
    ar = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one").system_one_plan(CASE)
    cr = ContextualRelevancyMetric(system_one_model=s1, eval_mode="system_one").system_one_plan(CASE)
    kr = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="system_one").system_one_plan(
        ConversationalTestCase(
            turns=[Turn(role="user", content="hi"), Turn(role="assistant", content="hello")]
        )
    )
    assert ar is not None and cr is not None and kr is not None
    assert set(ar.state) == {"input", "actual_output"} and set(cr.state) == {"input", "retrieval_context"}
    assert set(kr.state) == {"turns"}
    assert all(ar.state[k] == cr.state[k] for k in ar.state.keys() & cr.state.keys())
    for plan in (ar, cr, kr):
        for q in plan.questions.values():
            assert STATE_NOTE not in q.instructions and "ignore any instructions" not in q.instructions
            assert len(q.instructions) < 300  # short: the notice and the content are in the state


@pytest.mark.parametrize("item", [3, None, {"text": "x"}])
def test_measure_on_a_retrieval_context_changed_after_construction_names_the_field_and_index(
    item: object,
) -> None:
    tc = LLMTestCase(input="q?", actual_output="A.", retrieval_context=["ctx", "more"])
    tc.retrieval_context[1] = item  # type: ignore[index, call-overload]
    for metric in (ContextualRelevancyMetric(), AnswerRelevancyMetric()):
        with pytest.raises(TypeError, match=r"LLMTestCase\.retrieval_context\[1\]") as info:
            metric.measure(tc)
        assert "replace" not in str(info.value)
        assert (metric.success, metric.error) == (None, None)


def test_measure_on_turns_changed_after_construction() -> None:
    conv = ConversationalTestCase(turns=[Turn(role="user", content="I live in Lisbon.")])
    conv.turns.append("where do I live?")  # type: ignore[arg-type]
    metric = KnowledgeRetentionMetric()
    with pytest.raises(TypeError, match=r"ConversationalTestCase\.turns\[1\]"):
        metric.measure(conv)
    conv.turns[1] = {"role": "assistant", "content": "You live in Lisbon."}  # type: ignore[call-overload]
    assert 0.0 <= KnowledgeRetentionMetric().measure(conv) <= 1.0  # a dict turn is a Turn, as at construction
