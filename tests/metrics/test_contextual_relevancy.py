from __future__ import annotations

import pytest

from deepeval.errors import MissingTestCaseParamsError, SystemOneError
from deepeval.metrics import ContextualRelevancyMetric
from deepeval.test_case import LLMTestCase, RetrievedContextData
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import SlowLLM, calls_by_schema, router

NODE_A = "All customers are eligible for a 30 day full refund at no extra cost. Our office is in Paris."
NODE_B = "Shoes can be exchanged for another size within 60 days."
NODE_C = "The company was founded in 1999."
STATEMENTS = {
    NODE_A: ["All customers get a 30 day full refund at no extra cost.", "The office is in Paris."],
    NODE_B: ["Shoes can be exchanged for another size within 60 days."],
    NODE_C: ["The company was founded in 1999."],
}
VERDICTS = {
    "The office is in Paris.": "no",
    "All customers get a 30 day full refund at no extra cost.": "Yes.",
    "Shoes can be exchanged for another size within 60 days.": "YES ",
    "The company was founded in 1999.": "no",
}


def verdicts_for(prompt: str) -> list[str]:
    """Verdicts for the statements quoted in a verdict prompt, in prompt order."""
    found = sorted((prompt.index(s), v) for s, v in VERDICTS.items() if f'"{s}"' in prompt)
    return [v for _, v in found]


def case(nodes: list[str | RetrievedContextData] | None) -> LLMTestCase:
    return LLMTestCase(
        input="What if these shoes don't fit?",
        actual_output="We offer a 30-day full refund at no extra cost.",
        retrieval_context=nodes,
    )


def make_llm() -> ScriptedLLM:
    return ScriptedLLM(router(statements=STATEMENTS, verdicts=verdicts_for, reason="cr reason"))


def test_llm_score_relevant_over_all_statements() -> None:
    llm = make_llm()
    metric = ContextualRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(case([NODE_A, NODE_B, NODE_C])) == pytest.approx(2 / 4)
    assert metric.reason == "cr reason"
    # per node: one statements call and one verdict call; then one reason call
    assert calls_by_schema(llm) == {"StatementList": 3, "BinaryVerdicts": 3, "ReasonReply": 1}
    assert metric.score_breakdown is not None
    assert metric.score_breakdown["relevant_per_node"] == [1, 1, 0]
    assert metric.score_breakdown["statements_per_node"] == [2, 1, 1]
    assert (metric.score_breakdown["relevant"], metric.score_breakdown["irrelevant"]) == (2, 2)


@pytest.mark.parametrize("mode", ["llm", "hybrid"])
def test_retrieved_context_data_is_judged_as_source_and_text(mode: str) -> None:
    """deepeval crashes on RetrievedContextData in llm/hybrid; we judge it as "<source>: <context>"."""
    node = RetrievedContextData(context=NODE_B, source="faq.md")
    rendered = f"faq.md: {NODE_B}"
    statements = {
        rendered: ["Shoes can be exchanged for another size within 60 days."],
        NODE_C: STATEMENTS[NODE_C],
    }
    llm = ScriptedLLM(router(statements=statements, verdicts=verdicts_for))
    probs = {
        "Shoes can be exchanged for another size within 60 days.": 0.9,
        "The company was founded in 1999.": 0.1,
    }
    s1 = ScriptedSystemOne(lambda state, qs: {qid: probs[q.data["statement"]] for qid, q in qs.items()})
    metric = ContextualRelevancyMetric(model=llm, system_one_model=s1, eval_mode=mode)
    assert metric.measure(case([node, NODE_C])) == 0.5
    assert metric.error is None
    split_prompts = [
        c.prompt for c in llm.calls if c.schema is not None and c.schema.__name__ == "StatementList"
    ]
    assert any(rendered in p for p in split_prompts)


def test_empty_retrieval_context_scores_zero_without_calls() -> None:
    llm = make_llm()
    metric = ContextualRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(case([])) == 0.0
    assert metric.success is False
    assert metric.reason is not None and "empty" in metric.reason
    assert llm.call_count == 0


def test_no_statements_scores_zero() -> None:
    llm = ScriptedLLM(router(statements=[]))
    metric = ContextualRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(case(["...", "  "])) == 0.0
    assert calls_by_schema(llm) == {"StatementList": 1}  # the blank node is not sent


def test_missing_retrieval_context_raises() -> None:
    metric = ContextualRelevancyMetric(model=make_llm(), eval_mode="llm")
    with pytest.raises(MissingTestCaseParamsError, match=r"Contextual Relevancy.*retrieval_context"):
        metric.measure(case(None))


def test_nodes_are_processed_concurrently() -> None:
    llm = SlowLLM(router(statements=STATEMENTS, verdicts=verdicts_for))
    metric = ContextualRelevancyMetric(model=llm, eval_mode="llm")
    assert metric.measure(case([NODE_A, NODE_B, NODE_C])) == pytest.approx(0.5)
    assert llm.peak == 3 and llm.calls == 7
    sync_llm = SlowLLM(router(statements=STATEMENTS, verdicts=verdicts_for))
    sync_metric = ContextualRelevancyMetric(model=sync_llm, eval_mode="llm", async_mode=False)
    assert sync_metric.measure(case([NODE_A, NODE_B, NODE_C])) == pytest.approx(0.5)
    assert sync_llm.peak == 0  # the sync path calls generate(), one call at a time
    assert sync_metric.score_breakdown == metric.score_breakdown


def test_hybrid_one_request_over_all_nodes() -> None:
    probs = {
        "All customers get a 30 day full refund at no extra cost.": 0.97,
        "The office is in Paris.": 0.03,
        "Shoes can be exchanged for another size within 60 days.": 0.55,
        "The company was founded in 1999.": 0.2,
    }
    s1 = ScriptedSystemOne(lambda state, qs: {qid: probs[q.data["statement"]] for qid, q in qs.items()})
    llm = make_llm()
    metric = ContextualRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid", verbose_mode=False)
    assert metric.measure(case([NODE_A, NODE_B, NODE_C])) == pytest.approx(0.5)  # 0.97 and 0.55 are yes
    assert s1.call_count == 1 and len(s1.calls[0].questions) == 4
    assert calls_by_schema(llm) == {"StatementList": 3, "ReasonReply": 1}
    assert metric.confidence == pytest.approx(0.1)
    assert metric.verbose_logs is not None and '"p_yes": 0.55' in metric.verbose_logs


def test_hybrid_fallback_groups_by_node() -> None:
    llm = make_llm()
    s1 = ScriptedSystemOne([SystemOneError("429", kind="rate_limit", retryable=True)])
    metric = ContextualRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(case([NODE_A, NODE_B, NODE_C])) == pytest.approx(0.5)
    assert calls_by_schema(llm)["BinaryVerdicts"] == 3
    assert metric.system_one_fallback_reason is not None
    assert metric.system_one_fallback_reason.startswith(
        "System One model scripted-system-one: rate_limit: 429"
    )


def test_system_one_formula() -> None:
    s1 = ScriptedSystemOne(
        lambda state, qs: {"all_relevant": 0.8, "every_node_relevant": 0.8, "relevant_share": 1.7}
    )
    metric = ContextualRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    node = RetrievedContextData(context=NODE_B, source="faq.md")
    assert metric.measure(case([NODE_A, node])) == pytest.approx(0.741666, abs=1e-5)
    assert s1.calls[0].state == {
        "input": "What if these shoes don't fit?",
        "retrieval_context": [NODE_A, f"faq.md: {NODE_B}"],
    }
    kinds = [q.kind for q in s1.calls[0].questions.values()]
    assert kinds == [
        "contextual_relevancy.all_relevant",
        "contextual_relevancy.every_node_relevant",
        "contextual_relevancy.relevant_share",
    ]
    assert [w.weight for w in metric.question_set.whole_metric("q", ["n"])] == [2.0, 1.0, 1.0]


def test_strict_mode() -> None:
    metric = ContextualRelevancyMetric(model=make_llm(), eval_mode="llm", strict_mode=True)
    assert metric.measure(case([NODE_A, NODE_B])) == 0.0
    metric = ContextualRelevancyMetric(model=make_llm(), eval_mode="llm", strict_mode=True)
    assert metric.measure(case([NODE_B])) == 1.0 and metric.success is True
