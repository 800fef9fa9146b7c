"""``assert_test(golden=golden, metrics=[...])`` after a traced call, with the user code of deepeval's pytest
integration docs: end-to-end (the test case built from the trace) and component-level (the metrics of the spans).
These tests run under our pytest plugin, which collects each test's traces (deepeval 4.3.1 does this only under
``deepeval test run``; the same file passes there, except that 4.3.1's message for failing span metrics names none:
``'Metrics:  failed.'``)."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval import assert_test
from deepeval.dataset import EvaluationDataset, Golden
from deepeval.errors import DeepEvalError
from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase
from deepeval.tracing import _test_scope, observe, trace, update_current_span, update_current_trace


class Has(BaseMetric):
    """1 when ``word`` is in the output, expected output or retrieval context."""

    def __init__(self, word: str, threshold: float = 0.5) -> None:
        self.word = word
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        text = f"{test_case.actual_output} {test_case.expected_output} {test_case.retrieval_context}"
        self.score = 1.0 if self.word in text else 0.0
        self.reason = f"looked for {self.word!r}"
        self.success = self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"Has {self.word}"


dataset = EvaluationDataset(goldens=[Golden(input="alpha", expected_output="gold-exp"), Golden(input="beta")])


@observe()
def rag_pipeline(query: str) -> str:
    chunks = [f"chunk about {query}"]
    answer = f"answer to {query}"
    update_current_trace(input=query, output=answer, retrieval_context=chunks)
    return answer


@pytest.mark.parametrize("golden", dataset.goldens)
def test_end_to_end_passes(golden: Golden) -> None:
    rag_pipeline(golden.input)
    assert_test(golden=golden, metrics=[Has("answer"), Has(f"chunk about {golden.input}")])


@pytest.mark.parametrize("golden", dataset.goldens)
def test_end_to_end_failure_names_the_metric(golden: Golden) -> None:
    rag_pipeline(golden.input)
    with pytest.raises(AssertionError, match=r"Has zzz \(score: 0\.0000, threshold: 0\.5"):
        assert_test(golden=golden, metrics=[Has("zzz")])


def test_the_goldens_expected_output_stands_in_where_the_trace_set_none() -> None:
    rag_pipeline("alpha")
    assert_test(golden=dataset.goldens[0], metrics=[Has("gold-exp")])


@observe(metrics=[Has("answer")])
def generator(query: str) -> str:
    out = f"answer for {query}"
    update_current_span(test_case=LLMTestCase(input=query, actual_output=out))
    return out


@observe(metrics=[Has("zzz")])
def bad_generator(query: str) -> str:
    out = f"answer for {query}"
    update_current_span(test_case=LLMTestCase(input=query, actual_output=out))
    return out


@observe()
def agent(query: str) -> str:
    return generator(query)


@observe()
def bad_agent(query: str) -> str:
    return bad_generator(query)


def test_component_level_metrics_live_on_the_spans() -> None:
    agent("alpha")
    assert_test(golden=dataset.goldens[0])


def test_component_level_failure_names_the_span_metric() -> None:
    bad_agent("alpha")
    with pytest.raises(AssertionError, match="Has zzz"):
        assert_test(golden=dataset.goldens[0])


def test_each_call_takes_the_traces_finished_since_the_last() -> None:
    bad_agent("alpha")
    with pytest.raises(AssertionError):
        assert_test(golden=dataset.goldens[0])
    agent("alpha")  # only this trace is left for the next call
    assert_test(golden=dataset.goldens[0])


def test_inside_a_trace_block_the_running_trace_is_used() -> None:
    with trace(metrics=[Has("answer")]):
        rag_pipeline("alpha")
        assert_test(golden=dataset.goldens[0])


def test_without_a_trace_it_says_what_to_do() -> None:
    with pytest.raises(DeepEvalError, match="No active trace found for this test"):
        assert_test(golden=dataset.goldens[0], metrics=[Has("x")])
    outside_a_test = _test_scope.set(None)  # a script: no pytest test collects traces
    try:
        rag_pipeline("alpha")
        with pytest.raises(DeepEvalError, match="No active trace found"):
            assert_test(golden=dataset.goldens[0], metrics=[Has("answer")])
    finally:
        _test_scope.reset(outside_a_test)


def test_neither_a_test_case_nor_a_golden_is_deepevals_value_error() -> None:
    with pytest.raises(ValueError, match=r"^You must provide either \('golden' \[\+ 'metrics'\]\)"):
        assert_test()
