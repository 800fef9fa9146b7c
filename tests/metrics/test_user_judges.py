"""Custom judges written the way deepeval users write them (REFERENCE §3, §6)."""

from __future__ import annotations

from typing import Any

import pytest

from _support.judges import UserLLM, UserSystemOne, confident_answers
from _support.markers import REGRESSION
from deepeval.errors import DeepEvalError
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION

TC = LLMTestCase(
    input="What if these shoes don't fit?",
    actual_output="We offer a refund. It is free.",
    retrieval_context=["Refunds are free."],
)


def test_control_custom_system_one_returning_answers_and_cost_works() -> None:
    s1 = UserSystemOne(lambda state, qs: (confident_answers(qs), 0.01))
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    # (2 * 0.8 + 0.8 + 3/3) / 4 = 0.85
    assert m.measure(TC) == pytest.approx(0.85)
    assert m.evaluation_cost == pytest.approx(0.01)


def test_system_one_model_returning_bare_answers_is_accepted_or_named() -> None:
    s1 = UserSystemOne(lambda state, qs: confident_answers(qs), name="my-bare-s1")
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    try:
        score = m.measure(TC)
    except Exception as exc:  # a clear error is acceptable too
        assert isinstance(exc, (DeepEvalError, TypeError)), repr(exc)
        assert "my-bare-s1" in str(exc) and "SystemOneAnswers" in str(exc)
    else:
        assert score == pytest.approx(0.85)


def test_system_one_model_returning_none_gets_a_clear_error() -> None:
    s1 = UserSystemOne(lambda state, qs: None, name="my-none-s1")
    m = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    with pytest.raises(Exception) as info:
        m.measure(TC)
    assert "my-none-s1" in str(info.value)


@pytest.mark.parametrize("exc", [ConnectionError("connection refused"), TimeoutError("read timed out")])
def test_hybrid_falls_back_to_llm_when_custom_system_one_has_connection_trouble(exc: BaseException) -> None:
    def boom(state: Any, qs: Any) -> Any:
        raise exc

    llm = UserLLM()
    m = AnswerRelevancyMetric(model=llm, system_one_model=UserSystemOne(boom), eval_mode="hybrid")
    assert m.measure(TC) == 1.0  # the LLM says every statement is relevant
    assert m.system_one_fallback_reason and "user-s1" in m.system_one_fallback_reason


@pytest.mark.parametrize(
    "eval_mode",
    [
        "hybrid",
        "system_one",
    ],
)
def test_degenerate_inputs_get_defined_scores_without_system_one_calls(eval_mode: str) -> None:
    """Issue 4: whitespace-only output and retrieval_context=[] get defined scores without judge calls, in every
    mode. Hybrid does this; system_one sends the blank test case to the judge (on the embedded judge a
    whitespace-only answer then scores 0.75 and passes the default threshold)."""
    s1 = UserSystemOne(lambda state, qs: (confident_answers(qs), 0.0))
    blank = LLMTestCase(input="What if these shoes don't fit?", actual_output="  \n ")
    ar = AnswerRelevancyMetric(model=UserLLM(), system_one_model=s1, eval_mode=eval_mode)
    assert ar.measure(blank) == 0.0 and ar.success is False
    empty = LLMTestCase(
        input="What if these shoes don't fit?", actual_output="A refund.", retrieval_context=[]
    )
    cr = ContextualRelevancyMetric(model=UserLLM(), system_one_model=s1, eval_mode=eval_mode)
    assert cr.measure(empty) == 0.0
    assert s1.calls == 0


class _DownJudge(DeepEvalBaseLLM):
    """A custom judge whose every call fails (the same class ran on deepeval 4.3.1)."""

    def __init__(self) -> None:
        self.model = "down"

    def load_model(self) -> str:
        return self.model

    def generate(self, prompt: str, schema: Any = None) -> Any:
        raise RuntimeError("judge is down")

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        raise RuntimeError("judge is down")

    def get_model_name(self) -> str:
        return "Down"


@pytest.mark.parametrize("async_mode", [True, False])
def test_a_measure_that_raised_leaves_no_error_on_the_metric(async_mode: bool) -> None:
    # deepeval 4.3.1, both async_mode values: RuntimeError("judge is down") raised; then metric.error None, score
    # None, success None
    metric = AnswerRelevancyMetric(model=_DownJudge(), async_mode=async_mode)
    with pytest.raises(RuntimeError, match="judge is down"):
        metric.measure(LLMTestCase(input="q", actual_output="a"))
    assert (metric.error, metric.score, metric.success) == (None, None, None)


@pytest.mark.parametrize(
    "metric_class", [AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric]
)
def test_a_misspelled_keyword_names_the_metric_class(metric_class: type) -> None:
    # deepeval 4.3.1: "AnswerRelevancyMetric.__init__() got an unexpected keyword argument 'treshold'"
    with pytest.raises(TypeError) as info:
        metric_class(model=_DownJudge(), treshold=0.5)
    assert (
        str(info.value) == f"{metric_class.__name__}.__init__() got an unexpected keyword argument 'treshold'"
    )


def test_a_user_subclass_without_init_keeps_the_metric_s_name() -> None:
    class MyRelevancy(AnswerRelevancyMetric):  # as Python names an inherited __init__
        pass

    with pytest.raises(TypeError, match=r"^AnswerRelevancyMetric\.__init__\(\) got an unexpected keyword"):
        MyRelevancy(treshold=0.5)
    assert MyRelevancy(threshold=0.3).threshold == 0.3
