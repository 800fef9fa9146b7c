"""User System One models that return the wrong shape or raise plain Python exceptions
(``models/system_one/call.py``), through the metrics in system_one and hybrid mode, async and sync."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from _support.judges import UserSystemOne
from deepeval.errors import SystemOneError
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models.system_one.call import a_decide_checked, check_decision
from deepeval.models.system_one.schema import NoulAnswer, ScoreAnswer, SystemOneAnswers
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM

from .helpers import FakeExtractor, router

CASE = LLMTestCase(input="q?", actual_output="A. B.")
# AnswerRelevancy system_one: (2 * 0.8 + 0.6 + 2/3) / 4
WHOLE = {"all_relevant": 0.8, "addresses_input": 0.6}
EXPECTED = (2 * 0.8 + 0.6 + 2 / 3) / 4


def whole_answers(questions: Any) -> SystemOneAnswers:
    nouls = {
        q: NoulAnswer(probability=WHOLE.get(q, 0.9)) for q in questions if q in WHOLE or q.startswith("s")
    }
    scores = {
        q: ScoreAnswer(score=2.0, probabilities={2: 1.0}, confidence=1.0)
        for q in questions
        if q == "relevant_share"
    }
    return SystemOneAnswers(nouls=nouls, scores=scores)


def llm() -> ScriptedLLM:
    return ScriptedLLM(router(statements=["A.", "B."], verdicts=["yes", "no"], reason="llm reason"))


@pytest.mark.parametrize("async_mode", [True, False])
def test_bare_answers_accepted_with_cost_none(async_mode: bool) -> None:
    s1 = UserSystemOne(lambda s, q: whole_answers(q))
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one", async_mode=async_mode)
    assert m.measure(CASE) == pytest.approx(EXPECTED)
    assert m.evaluation_cost is None and m.error is None


def test_dict_answers_accepted_and_cost_kept() -> None:
    s1 = UserSystemOne(lambda s, q: (whole_answers(q).model_dump(), 0.25))
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    assert m.measure(CASE) == pytest.approx(EXPECTED)
    assert m.evaluation_cost == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("returned", "described"),
    [
        (None, "returned None"),
        ({"nouls": "nope"}, "a dict that is not a SystemOneAnswers"),
        ((1, 2, 3), "a tuple of 3 (int, int, int)"),
        ("yes", "returned str"),
    ],
)
@pytest.mark.parametrize("async_mode", [True, False])
def test_wrong_shapes_get_a_clear_error_in_system_one_mode(
    returned: Any, described: str, async_mode: bool
) -> None:
    s1 = UserSystemOne(lambda s, q: returned, name="shape-s1")
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one", async_mode=async_mode)
    with pytest.raises(SystemOneError) as info:
        m.measure(CASE)
    msg = str(info.value)
    assert "shape-s1" in msg and "(SystemOneAnswers, cost | None)" in msg and described in msg
    assert info.value.kind == "server" and info.value.model == "shape-s1"
    assert (m.error, m.success) == (None, None)


def test_bad_cost_is_named() -> None:
    answers = SystemOneAnswers()
    with pytest.raises(SystemOneError, match="a cost of type str"):
        check_decision((answers, "0.1"), UserSystemOne(lambda s, q: None))
    with pytest.raises(SystemOneError, match="a cost of type bool"):
        check_decision((answers, True), UserSystemOne(lambda s, q: None))
    assert check_decision((answers, 1), UserSystemOne(lambda s, q: None)) == (answers, 1.0)
    assert check_decision(answers, UserSystemOne(lambda s, q: None)) == (answers, None)


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (ConnectionRefusedError("refused"), "connection"),
        (OSError("network unreachable"), "connection"),
        (TimeoutError("read timed out"), "timeout"),
        (asyncio.TimeoutError(), "timeout"),
        (RuntimeError("model crashed"), "server"),
        (KeyError("weights"), "server"),
    ],
)
def test_plain_exceptions_become_system_one_errors(exc: Exception, kind: str) -> None:
    def boom(s: Any, q: Any) -> Any:
        raise exc

    model = UserSystemOne(boom, name="boom-s1")
    with pytest.raises(SystemOneError) as info:
        asyncio.run(a_decide_checked(model, {}, {}))
    assert info.value.kind == kind and info.value.model == "boom-s1"
    assert info.value.retryable is (kind != "server")
    assert info.value.__cause__ is exc
    assert str(info.value).startswith(f"System One model boom-s1 raised {type(exc).__name__}")


def test_our_own_errors_pass_unchanged() -> None:
    err = SystemOneError("typed failure", model="x", kind="bad_request")

    def boom(s: Any, q: Any) -> Any:
        raise err

    with pytest.raises(SystemOneError) as info:
        asyncio.run(a_decide_checked(UserSystemOne(boom), {}, {}))
    assert info.value is err


@pytest.mark.parametrize("exc", [ConnectionError("refused"), TimeoutError("slow"), RuntimeError("crashed")])
@pytest.mark.parametrize("async_mode", [True, False])
def test_hybrid_falls_back_to_llm_on_any_model_failure(exc: Exception, async_mode: bool) -> None:
    def boom(s: Any, q: Any) -> Any:
        raise exc

    judge = llm()
    m = AnswerRelevancyMetric(
        model=judge,
        system_one_model=UserSystemOne(boom, name="flaky-s1"),
        eval_mode="hybrid",
        async_mode=async_mode,
    )
    assert m.measure(CASE) == 0.5  # the LLM: one of two statements relevant
    reason = m.system_one_fallback_reason
    assert reason is not None
    assert "flaky-s1" in reason and type(exc).__name__ in reason and str(exc) in reason
    assert "2 of 2 decision(s) made by the LLM" in reason
    assert m.score_breakdown is not None and m.score_breakdown["decided_by_llm"] == 2


def test_hybrid_falls_back_on_a_wrong_shape_and_records_it() -> None:
    m = AnswerRelevancyMetric(
        model=llm(), system_one_model=UserSystemOne(lambda s, q: None, name="none-s1"), eval_mode="hybrid"
    )
    assert m.measure(CASE) == 0.5
    assert m.system_one_fallback_reason is not None
    assert "none-s1" in m.system_one_fallback_reason and "returned None" in m.system_one_fallback_reason


def test_hybrid_without_llm_reports_both_causes() -> None:
    def boom(s: Any, q: Any) -> Any:
        raise ConnectionError("refused")

    m = AnswerRelevancyMetric(
        system_one_model=UserSystemOne(boom, name="down-s1"),
        eval_mode="hybrid",
        extractor=FakeExtractor(statements={"A. B.": ["A.", "B."]}),
    )
    with pytest.raises(SystemOneError) as info:
        m.measure(CASE)
    msg = str(info.value)
    assert "down-s1" in msg and "ConnectionError: refused" in msg and "OPENAI_API_KEY" in msg
    assert info.value.kind == "connection"
