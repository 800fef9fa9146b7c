"""Inputs with nothing to judge get their defined score and reason with NO judge call, in every eval mode, through
``measure`` (async and sync), ``a_measure`` and ``evaluate()``'s batched System One path."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval.evaluate import DisplayConfig, evaluate
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics._engine.params import has_words
from deepeval.metrics.answer_relevancy.metric import BLANK_OUTPUT_REASON, NO_STATEMENTS_REASON
from deepeval.metrics.answer_relevancy.metric import NO_WORDS_REASON as AR_NO_WORDS
from deepeval.metrics.base_metric import BaseMetric
from deepeval.metrics.contextual_relevancy.metric import EMPTY_CONTEXT_REASON
from deepeval.metrics.contextual_relevancy.metric import NO_WORDS_REASON as CR_NO_WORDS
from deepeval.metrics.knowledge_retention.metric import NOTHING_TO_CHECK_REASON
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

MODES = ["llm", "hybrid", "system_one"]
QUESTION = "What if these shoes don't fit?"


def judges() -> tuple[ScriptedLLM, ScriptedSystemOne]:
    def no_llm(prompt: str, schema: Any) -> Any:
        raise AssertionError(f"the LLM was called: {prompt[:80]}")

    def no_s1(state: Any, questions: Any) -> Any:
        raise AssertionError(f"System One was called with {list(questions)}")

    return ScriptedLLM(no_llm), ScriptedSystemOne(no_s1)


def assert_no_calls(llm: ScriptedLLM, s1: ScriptedSystemOne) -> None:
    assert llm.call_count == 0 and s1.call_count == 0


BLANK_OUTPUT = LLMTestCase(input=QUESTION, actual_output="  \n\t ")
EMPTY_CONTEXT = LLMTestCase(input=QUESTION, actual_output="A refund.", retrieval_context=[])

CASES: list[tuple[type[BaseMetric], LLMTestCase, str]] = [
    (AnswerRelevancyMetric, BLANK_OUTPUT, BLANK_OUTPUT_REASON),
    (ContextualRelevancyMetric, EMPTY_CONTEXT, EMPTY_CONTEXT_REASON),
    (AnswerRelevancyMetric, LLMTestCase(input=QUESTION, actual_output="..."), AR_NO_WORDS),
    (AnswerRelevancyMetric, LLMTestCase(input=QUESTION, actual_output=" - "), AR_NO_WORDS),
    (AnswerRelevancyMetric, LLMTestCase(input=QUESTION, actual_output="\U0001f44d\U0001f44d!"), AR_NO_WORDS),
    (
        ContextualRelevancyMetric,
        LLMTestCase(input=QUESTION, actual_output="A refund.", retrieval_context=["", " ... ", "\u2014"]),
        CR_NO_WORDS,
    ),
]


@pytest.mark.parametrize(("cls", "case", "reason"), CASES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("async_mode", [True, False])
def test_scored_without_a_judge_in_every_mode(
    cls: type[Any], case: LLMTestCase, reason: str, mode: str, async_mode: bool
) -> None:
    llm, s1 = judges()
    m = cls(model=llm, system_one_model=s1, eval_mode=mode, async_mode=async_mode, threshold=0.5)
    assert m.measure(case) == 0.0
    assert m.success is False and m.error is None
    assert m.reason == reason
    assert m.evaluation_model is None and m.confidence is None and m.evaluation_cost is None
    assert m.score_breakdown is not None and m.score_breakdown["judge_calls"] == 0
    assert m.verbose_logs == f"Eval mode: {mode}\n\nNo judge call:\n{reason}"
    assert m.system_one_plan(case) is None
    assert_no_calls(llm, s1)


@pytest.mark.parametrize(("cls", "case", "reason"), CASES)
def test_include_reason_false_and_strict_and_score_only(
    cls: type[Any], case: LLMTestCase, reason: str
) -> None:
    llm, s1 = judges()
    m = cls(model=llm, system_one_model=s1, eval_mode="system_one", include_reason=False, strict_mode=True)
    assert m.measure(case) == 0.0 and m.reason is None and m.success is False
    score_only = cls(model=llm, system_one_model=s1, eval_mode="system_one", threshold=None)
    assert score_only.measure(case) == 0.0 and score_only.success is None
    assert_no_calls(llm, s1)


def test_evaluate_produces_the_rows_without_a_request() -> None:
    """The runner asks ``system_one_plan`` first; None sends the metric to ``a_measure``, which scores it."""
    llm, s1 = judges()
    metrics = [
        AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="system_one"),
        ContextualRelevancyMetric(model=llm, system_one_model=s1, eval_mode="system_one"),
    ]
    both = LLMTestCase(input=QUESTION, actual_output=" ", retrieval_context=[])
    result = evaluate(
        [both], metrics, display_config=DisplayConfig(print_results=False, show_indicator=False)
    )
    rows = {r.name: r for r in result.test_results[0].metrics_data}
    assert rows["Answer Relevancy"].score == 0.0 and rows["Answer Relevancy"].reason == BLANK_OUTPUT_REASON
    assert rows["Contextual Relevancy"].score == 0.0
    assert rows["Contextual Relevancy"].reason == EMPTY_CONTEXT_REASON
    assert all(r.error is None and r.success is False for r in rows.values())
    assert result.test_results[0].success is False
    assert_no_calls(llm, s1)


def test_one_degenerate_metric_does_not_stop_the_others_batch() -> None:
    """AnswerRelevancy has a real output (one request); ContextualRelevancy's empty context needs none."""
    s1 = ScriptedSystemOne(lambda state, qs: {q: (2.0 if q.endswith("relevant_share") else 0.9) for q in qs})
    metrics = [
        AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one"),
        ContextualRelevancyMetric(system_one_model=s1, eval_mode="system_one"),
    ]
    case = LLMTestCase(input=QUESTION, actual_output="We refund you.", retrieval_context=[])
    result = evaluate(
        [case], metrics, display_config=DisplayConfig(print_results=False, show_indicator=False)
    )
    rows = {r.name: r for r in result.test_results[0].metrics_data}
    assert rows["Answer Relevancy"].score == pytest.approx((2 * 0.9 + 0.9 + 2 / 3) / 4)
    assert rows["Contextual Relevancy"].score == 0.0
    assert s1.call_count == 1
    assert all("retrieval_context" not in str(c.state) for c in s1.calls)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("...", False),
        ("-", False),
        ("\U0001f44d\U0001f44d", False),
        ("?! \u2014 \u2026", False),
        ("", False),
        ("42", True),
        ("ok", True),
        ("\u00e9t\u00e9", True),
        ("\u5546\u54c1", True),
        ("\u0627\u0644\u0633\u0644\u0627\u0645", True),
        ("\U0001f44d yes", True),
    ],
)
def test_has_words(text: str, expected: bool) -> None:
    assert has_words(text) is expected


@pytest.mark.parametrize("output", ["42", "\u5546\u54c1\u3002", "OK \U0001f44d"])
def test_outputs_with_words_still_go_to_the_judge(output: str) -> None:
    """Digits, CJK and a word with an emoji are words: the LLM is asked, and its empty split scores 1.0."""
    from .helpers import router

    llm = ScriptedLLM(router(statements=[]))
    m = AnswerRelevancyMetric(model=llm, eval_mode="llm")
    assert m.measure(LLMTestCase(input=QUESTION, actual_output=output)) == 1.0
    assert m.reason == NO_STATEMENTS_REASON and llm.call_count == 1


def test_one_worded_node_is_enough_to_judge_the_context() -> None:
    from .helpers import router

    llm = ScriptedLLM(router(statements={"Refunds are free.": ["Refunds are free."]}, verdicts=["yes"]))
    m = ContextualRelevancyMetric(model=llm, eval_mode="llm", include_reason=False)
    case = LLMTestCase(
        input=QUESTION, actual_output="A refund.", retrieval_context=["Refunds are free.", "..."]
    )
    assert m.measure(case) == 1.0
    assert llm.call_count >= 1


def convo(*pairs: tuple[str, str]) -> ConversationalTestCase:
    return ConversationalTestCase(turns=[Turn(role=r, content=c) for r, c in pairs])


NOTHING_TO_CHECK = [
    convo(("assistant", "Welcome! How can I help?")),
    convo(("user", "I'm Ann and I'm allergic to peanuts.")),
    convo(("assistant", "Welcome!"), ("user", "I'm Ann and I'm allergic to peanuts.")),
    convo(("assistant", "Hi."), ("assistant", "Anyone there?"), ("user", "Yes, I fly to Lisbon on 3 May.")),
    convo(("user", "..."), ("assistant", "Could you say more?")),
    convo(("user", "\U0001f44b"), ("assistant", "Hello! What can I do for you?"), ("user", "I'm Ann.")),
]


@pytest.mark.parametrize("case", NOTHING_TO_CHECK)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("async_mode", [True, False])
def test_knowledge_retention_with_nothing_to_check_scores_one_without_a_judge(
    case: ConversationalTestCase, mode: str, async_mode: bool
) -> None:
    llm, s1 = judges()
    m = KnowledgeRetentionMetric(model=llm, system_one_model=s1, eval_mode=mode, async_mode=async_mode)
    assert m.measure(case) == 1.0
    assert m.success is True and m.reason == NOTHING_TO_CHECK_REASON
    assert m.score_breakdown is not None
    assert m.score_breakdown["checked_turns"] == 0 and m.score_breakdown["judge_calls"] == 0
    assert m.score_breakdown["user_turns"] == sum(t.role == "user" for t in case.turns)
    assert m.system_one_plan(case) is None
    assert_no_calls(llm, s1)


def test_knowledge_retention_reply_to_a_user_turn_is_judged_in_system_one() -> None:
    """Whether "Hello there" states a fact takes a judge: system_one sends it (llm/hybrid extract facts first)."""
    s1 = ScriptedSystemOne(lambda state, qs: {q: (3.0 if q == "retention_level" else 0.95) for q in qs})
    m = KnowledgeRetentionMetric(system_one_model=s1, eval_mode="system_one")
    case = convo(("user", "Hello there"), ("assistant", "Hi! How can I help?"))
    plan = m.system_one_plan(case)
    assert plan is not None and plan.state["turns"][0]["content"] == "Hello there"
    m.measure(case)
    assert s1.call_count == 1 and m.score_breakdown is not None and "judge_calls" not in m.score_breakdown


def test_knowledge_retention_nothing_to_check_through_evaluate() -> None:
    llm, s1 = judges()
    metric = KnowledgeRetentionMetric(model=llm, system_one_model=s1, eval_mode="system_one")
    result = evaluate(
        NOTHING_TO_CHECK[:3],
        [metric],
        display_config=DisplayConfig(print_results=False, show_indicator=False),
    )
    rows = [tr.metrics_data[0] for tr in result.test_results]
    assert [(r.score, r.success, r.error) for r in rows] == [(1.0, True, None)] * 3
    assert_no_calls(llm, s1)
