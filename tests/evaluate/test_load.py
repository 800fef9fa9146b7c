"""300 test cases x 3 metrics against a real loopback OpenAI-compatible server with latency, 429s and failing
requests: every row present, errors on the right rows, retries counted, concurrency bounded."""

from __future__ import annotations

import json
import re
import zlib

from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig, ErrorConfig, EvaluationError
from deepeval.test_case import LLMTestCase
from deepeval.testing.servers import Fault, OpenAIChatServer

from ._fakes import CallLog, HttpJudgeMetric

N_CASES, METRICS, LATENCY, MAX_CONCURRENT = 300, ("alpha", "beta", "gamma"), 0.02, 20
BROKEN = {i for i in range(N_CASES) if i % 50 == 7}  # 6 cases = 2% of requests fail on every attempt


def expected_score(metric: str, case: int) -> float:
    return (zlib.crc32(f"{metric}:{case}".encode()) % 11) / 10


def responder(request: dict) -> str:
    text = request["messages"][0]["content"]
    metric, case = re.fullmatch(r"metric=(\w+) case=q(\d+)", text).groups()
    if int(case) in BROKEN:
        raise RuntimeError("model crashed on this input")  # the server answers 500
    return json.dumps({"score": expected_score(metric, int(case))})


def test_300_cases_x_3_metrics_under_latency_429s_and_errors():
    with OpenAIChatServer(
        responder, latency=LATENCY, failure_rate=0.05, failure=Fault.rate_limited(retry_after_ms=5), seed=7
    ) as server:
        log = CallLog()
        metrics = [
            HttpJudgeMetric(server.base_url, name, threshold=0.5, max_retries=5, log=log) for name in METRICS
        ]
        cases = [LLMTestCase(input=f"q{i}", actual_output=f"answer {i}") for i in range(N_CASES)]
        try:
            evaluate(
                cases,
                metrics,
                async_config=AsyncConfig(max_concurrent=MAX_CONCURRENT),
                display_config=DisplayConfig(show_indicator=False, print_results=False),
                cache_config=CacheConfig(write_cache=False),
            )
            raise AssertionError("expected EvaluationError")
        except EvaluationError as err:
            result = err.result
        counters = server.counters

    rows = [(t.index, m) for t in result.test_results for m in t.metrics_data]
    assert len(result.test_results) == N_CASES and len(rows) == N_CASES * len(METRICS)
    assert [t.index for t in result.test_results] == list(range(N_CASES))
    for i, m in rows:
        if i in BROKEN:
            # the last attempt of a broken case may draw a 429 instead of its 500
            assert re.fullmatch(r"JudgeError: judge loopback-judge: HTTP (500|429) after 5 retries", m.error)
            assert m.success is False and m.score is None and m.retries >= 5
        else:
            assert m.error is None, (i, m.name, m.error)
            assert m.score == expected_score(m.name, i)
            assert m.success is (m.score >= 0.5)
            assert m.input_tokens == 2 and m.output_tokens == 2  # word counts of prompt and reply
    assert len(result.errors) == len(BROKEN) * len(METRICS) == 18
    totals = result.totals()
    # every attempt beyond the first of each measure is a counted retry; an attempt whose connection was reset
    # before the server read it is a retry the server never counted
    resets = sum(len(m.connection_errors) for m in metrics)
    assert totals["retries"] == counters.requests - N_CASES * len(METRICS) + resets
    assert counters.faults_served >= 20  # the 429s really happened (5% of ~950 requests)
    assert totals["llm_calls"] == counters.replied_ok == (N_CASES - len(BROKEN)) * len(METRICS)
    # max_concurrent counts test cases (as deepeval's does): a test case's 3 metrics run together, so measures in
    # flight never exceed max_concurrent x 3 (the server may briefly see a few more: it counts a request until its
    # handler returns, after the client already has the reply and sent the next one)
    in_flight_cap = MAX_CONCURRENT * len(METRICS)
    assert MAX_CONCURRENT < log.peak <= in_flight_cap
    assert counters.max_in_flight <= in_flight_cap + 5
    # concurrency is shown by the peak in flight above; how close the wall time gets to the concurrency bound is
    # measured side by side in bench/ (a wall-time ceiling here failed on a loaded 2-core machine). What cannot
    # depend on load is the floor: no run beats requests x latency / slots
    assert result.duration_s >= counters.requests * LATENCY / in_flight_cap * 0.9


def test_ignore_errors_returns_the_same_rows():
    with OpenAIChatServer(responder, latency=0.0) as server:
        metric = HttpJudgeMetric(server.base_url, "alpha", max_retries=1)
        result = evaluate(
            [LLMTestCase(input=f"q{i}", actual_output="x") for i in (6, 7, 8)],
            [metric],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
            cache_config=CacheConfig(write_cache=False),
            error_config=ErrorConfig(ignore_errors=True),
        )
    assert [m.status != "error" for t in result.test_results for m in t.metrics_data] == [True, False, True]
    assert result.test_results[1].metrics_data[0].retries == 1
