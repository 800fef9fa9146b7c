"""The runner with this package's own metrics (System One mode, scripted judges)."""

from __future__ import annotations

import pytest

from deepeval import evaluate
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.evaluate.cache import cache_key
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

metrics = pytest.importorskip("deepeval.metrics")
QUIET = DisplayConfig(show_indicator=False, print_results=False)


def judge() -> ScriptedSystemOne:
    def answer(state, questions):
        return {k: (0.9 if isinstance(q, NoulQuestion) else 3.0) for k, q in questions.items()}, 0.003

    return ScriptedSystemOne(answer, name="jev-scripted")


def test_answer_and_contextual_relevancy_share_one_request_per_test_case(tmp_path):
    s1 = judge()
    ar = metrics.AnswerRelevancyMetric(eval_mode="system_one", system_one_model=s1)
    cr = metrics.ContextualRelevancyMetric(eval_mode="system_one", system_one_model=s1)
    kr = metrics.KnowledgeRetentionMetric(eval_mode="system_one", system_one_model=s1)
    single = [
        LLMTestCase(
            input=f"What is {i} + {i}?", actual_output=str(2 * i), retrieval_context=[f"{i}+{i}={2 * i}"]
        )
        for i in range(3)
    ]
    convo = ConversationalTestCase(
        turns=[Turn(role="user", content="I live in Oslo."), Turn(role="assistant", content="Noted, Oslo.")]
    )
    result = evaluate(
        [*single, convo],
        [ar, cr, kr],
        display_config=QUIET,
        cache_config=CacheConfig(cache_path=str(tmp_path / "c.sqlite")),
    )
    # 3 merged AR+CR requests (6 questions each) + 1 KR request for the conversation
    assert s1.call_count == 4 and result.system_one_batches == 4
    assert [len(c.questions) for c in s1.calls] == [6, 6, 6, 3]
    for t in result.test_results[:3]:
        a, c, k = t.metrics_data
        assert a.score == pytest.approx((2 * 0.9 + 0.9 + 1.0) / 4) and c.score == pytest.approx(a.score)
        assert a.evaluation_cost == pytest.approx(0.0015) and c.evaluation_cost == pytest.approx(0.0015)
        assert a.confidence == pytest.approx(0.8) and a.evaluation_model == "jev-scripted"
        assert k.skipped and t.success
    assert [m.status for m in result.test_results[3].metrics_data] == ["skipped", "skipped", "passed"]
    # second run: everything from the cache, no request
    again = evaluate(
        [*single, convo],
        [ar, cr, kr],
        display_config=QUIET,
        cache_config=CacheConfig(use_cache=True, cache_path=str(tmp_path / "c.sqlite")),
    )
    assert s1.call_count == 4 and again.cache_hits == 7
    assert [m.score for t in again.test_results for m in t.metrics_data] == [
        m.score for t in result.test_results for m in t.metrics_data
    ]


def test_real_metric_cache_key_changes_with_eval_mode_and_judge():
    tc = LLMTestCase(input="q", actual_output="a")
    llm = ScriptedLLM(lambda p, s: "{}", name="llm-a")
    base = metrics.AnswerRelevancyMetric(eval_mode="hybrid", model=llm, system_one_model=judge())
    keys = {
        "hybrid": cache_key(base, tc),
        "system_one": cache_key(
            metrics.AnswerRelevancyMetric(eval_mode="system_one", system_one_model=judge()), tc
        ),
        "other llm": cache_key(
            metrics.AnswerRelevancyMetric(
                eval_mode="hybrid",
                model=ScriptedLLM(lambda p, s: "{}", name="llm-b"),
                system_one_model=judge(),
            ),
            tc,
        ),
        "same": cache_key(
            metrics.AnswerRelevancyMetric(eval_mode="hybrid", model=llm, system_one_model=judge()), tc
        ),
    }
    assert keys["same"] == keys["hybrid"]
    assert len({keys["hybrid"], keys["system_one"], keys["other llm"]}) == 3


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
def test_errored_rows_count_every_request_sent(monkeypatch: pytest.MonkeyPatch, transport: str) -> None:
    """A judge that always answers 500, with 2 retries: 3 requests reach the server, and the row counts all three
    (``llm_calls`` + ``retries``), the failed attempts included."""
    from deepeval.evaluate import ErrorConfig
    from deepeval.models import LocalModel, TypeSafeModel
    from deepeval.models.http.retry import RetryPolicy
    from deepeval.testing._http import Fault
    from deepeval.testing.servers import OpenAIChatServer, SystemOneServer

    monkeypatch.setenv("DEEPEVAL_HTTP_CLIENT", transport)
    policy = RetryPolicy(max_retries=2, timeout=5, base_delay=0.001, max_delay=0.002)
    tc = LLMTestCase(input="What is 2 + 2?", actual_output="4", retrieval_context=["2+2=4"])
    with OpenAIChatServer() as llm_srv, SystemOneServer() as s1_srv:
        llm_srv.script(*[Fault.server_error()] * 3)
        s1_srv.script(*[Fault.server_error()] * 3)
        judge_llm = LocalModel(model="m", base_url=llm_srv.base_url, retry_policy=policy)
        s1 = TypeSafeModel(api_key="k", base_url=s1_srv.base_url, retry_policy=policy)
        result = evaluate(
            [tc],
            [
                metrics.AnswerRelevancyMetric(model=judge_llm, eval_mode="llm"),
                metrics.AnswerRelevancyMetric(eval_mode="system_one", system_one_model=s1),
            ],
            display_config=QUIET,
            cache_config=CacheConfig(write_cache=False),
            error_config=ErrorConfig(ignore_errors=True),
        )
        llm_row, s1_row = result.test_results[0].metrics_data
        assert llm_srv.counters.requests == 3 and s1_srv.counters.requests == 3
    assert llm_row.error is not None and (llm_row.llm_calls, llm_row.retries) == (1, 2)
    assert s1_row.error is not None and (s1_row.system_one_requests, s1_row.retries) == (1, 2)
