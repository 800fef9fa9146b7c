"""The usage examples of /work/shared/seeds run as written, with scripted judges passed as model=/system_one_model=
(the seeds name hosted judges, which tests must not call) and placeholder turns filled in."""

from __future__ import annotations

from pathlib import Path

import pytest

from deepeval import evaluate
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import router


@pytest.fixture(autouse=True)
def _cache_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEEPEVAL_CACHE_PATH", str(tmp_path / "cache.sqlite"))
    monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(tmp_path / "results"))


def test_answer_relevancy_seed(capsys: pytest.CaptureFixture[str]) -> None:
    # Replace this with the actual output from your LLM application
    actual_output = "We offer a 30-day full refund at no extra cost."
    model = ScriptedLLM(
        router(
            statements=["We offer a 30-day full refund at no extra cost."],
            verdicts=["yes"],
            reason="All relevant.",
        )
    )
    metric = AnswerRelevancyMetric(threshold=0.7, model=model, include_reason=True)
    test_case = LLMTestCase(input="What if these shoes don't fit?", actual_output=actual_output)

    metric.measure(test_case)
    print(metric.score)
    print(metric.reason)
    assert capsys.readouterr().out == "1.0\nAll relevant.\n"

    # or evaluate test cases in bulk
    result = evaluate([test_case], [metric])
    [row] = result.test_results
    assert row.success is True
    assert row.metrics_data[0].score == 1.0


def test_contextual_relevancy_seed(capsys: pytest.CaptureFixture[str]) -> None:
    actual_output = "We offer a 30-day full refund at no extra cost."
    retrieval_context = ["All customers are eligible for a 30 day full refund at no extra cost."]
    model = ScriptedLLM(
        router(
            statements=["All customers are eligible for a 30 day full refund."],
            verdicts=["yes"],
            reason="Relevant.",
        )
    )
    metric = ContextualRelevancyMetric(threshold=0.7, model=model, include_reason=True)
    test_case = LLMTestCase(
        input="What if these shoes don't fit?",
        actual_output=actual_output,
        retrieval_context=retrieval_context,
    )

    metric.measure(test_case)
    print(metric.score)
    print(metric.reason)
    assert capsys.readouterr().out == "1.0\nRelevant.\n"

    result = evaluate([test_case], [metric])
    assert result.test_results[0].metrics_data[0].score == 1.0


@pytest.mark.parametrize("mode", ["llm", "hybrid", "system_one"])
def test_knowledge_retention_seed_in_every_mode(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    # deepeval set-eval-mode <mode>
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", mode)
    turns = [
        Turn(role="user", content="My order number is 4521."),
        Turn(role="assistant", content="Thanks! What is your order number?"),
    ]
    llm = ScriptedLLM(
        router(
            facts={"My order number is 4521.": ["The user's order number is 4521."]},
            turn_verdicts={"Thanks! What is your order number?": "yes"},
            reason="It asked again for the order number.",
        )
    )
    by_kind = {
        "turn_attrition": 0.9,  # hybrid: the turn re-asks
        "knowledge_retention.no_forgetting": 0.2,
        "knowledge_retention.no_reasking": 0.1,
        "knowledge_retention.retention_level": 0.5,
    }
    # keyed by kind: evaluate() prefixes question ids when it batches System One requests
    jev = ScriptedSystemOne(lambda state, qs: {qid: by_kind[q.kind] for qid, q in qs.items()})

    convo_test_case = ConversationalTestCase(turns=turns)
    metric = KnowledgeRetentionMetric(threshold=0.5, model=llm, system_one_model=jev)

    # To run metric as a standalone
    metric.measure(convo_test_case)
    print(metric.score, metric.reason)
    expected = {"llm": 0.0, "hybrid": 0.0, "system_one": (2 * 0.2 + 0.1 + 0.5 / 3) / 4}[mode]
    assert metric.score == pytest.approx(expected)
    assert jev.call_count == (0 if mode == "llm" else 1)

    result = evaluate(test_cases=[convo_test_case], metrics=[metric])
    [data] = result.test_results[0].metrics_data
    assert data.error is None
    assert data.score == pytest.approx(expected)
    assert data.success is (expected >= 0.5)
    assert jev.call_count == (0 if mode == "llm" else 2)
