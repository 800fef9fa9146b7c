"""A System One request over the token budget (deepeval's Jev budget, applied to every System One model there) is
refused before anything is sent, with a hint to use eval mode ``llm``; in hybrid mode those decisions go to the LLM.
Our in-process embedded judge has no context window and is not limited."""

from __future__ import annotations

import pytest

from deepeval.errors import RequestTooLargeError
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.models.embedded.judge import EmbeddedJudge
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import calls_by_schema, router

HUGE = ("The refund window is thirty days from delivery. " * 4200)[:200_000]


def _always_yes() -> ScriptedSystemOne:
    return ScriptedSystemOne(lambda state, qs: {qid: 0.9 for qid in qs})


@pytest.mark.parametrize("field", ["input", "actual_output", "retrieval_context"])
def test_a_200k_character_test_case_is_refused_in_system_one_mode_before_sending(field: str) -> None:
    s1 = _always_yes()
    values: dict[str, object] = {
        "input": "Can I return these shoes?",
        "actual_output": "Yes, within 30 days.",
    }
    values[field] = [HUGE] if field == "retrieval_context" else HUGE
    case = LLMTestCase(**values)  # type: ignore[arg-type]
    metric_cls = ContextualRelevancyMetric if field == "retrieval_context" else AnswerRelevancyMetric
    metric = metric_cls(system_one_model=s1, eval_mode="system_one")
    with pytest.raises(RequestTooLargeError, match="too large") as info:
        metric.measure(case)
    assert s1.call_count == 0  # nothing was sent
    assert info.value.kind == "context_limit"
    assert "eval mode 'llm'" in str(info.value)
    assert (metric.error, metric.success) == (None, None)


def test_a_request_inside_the_budget_is_sent() -> None:
    s1 = _always_yes()
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    metric.measure(LLMTestCase(input="Can I return these shoes?", actual_output=HUGE[:20_000]))
    assert s1.call_count == 1 and metric.error is None


def test_hybrid_decisions_over_the_budget_go_to_the_llm() -> None:
    s1 = _always_yes()
    llm = ScriptedLLM(router(statements=["Refunds take thirty days."], verdicts=["no"], reason="r"))
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    score = metric.measure(LLMTestCase(input=HUGE, actual_output="Refunds take thirty days."))
    assert s1.call_count == 0
    assert score == 0.0  # the LLM's "no" decided
    assert calls_by_schema(llm)["Verdicts"] == 1
    assert metric.system_one_fallback_reason is not None and "too large" in metric.system_one_fallback_reason


def test_in_process_judges_have_no_request_budget() -> None:
    assert EmbeddedJudge.enforce_request_budget is False
    assert ScriptedSystemOne.enforce_request_budget is True  # a user's model gets deepeval's budget
