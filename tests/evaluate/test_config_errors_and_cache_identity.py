"""Evaluate(): bad configuration must fail early and lose nothing; the cache must serve identical work."""

from __future__ import annotations

from typing import Any

import pytest

from _support.judges import UserLLM, UserSystemOne, confident_answers
from _support.markers import REGRESSION
from deepeval import evaluate
from deepeval.errors import DeepEvalError
from deepeval.evaluate import CacheConfig, DisplayConfig
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.test_case import LLMTestCase

pytestmark = REGRESSION

TC = LLMTestCase(input="What if these shoes don't fit?", actual_output="We offer a refund. It is free.")


class CountingMetric(AnswerRelevancyMetric):
    measures = 0

    async def a_measure(self, *args: Any, **kwargs: Any) -> float:
        type(self).measures += 1
        return await super().a_measure(*args, **kwargs)


def test_results_folder_that_is_a_file_fails_early_or_keeps_the_result(tmp_path: Any) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("not a folder")
    CountingMetric.measures = 0
    metric = CountingMetric(model=UserLLM(), eval_mode="llm")
    display = DisplayConfig(results_folder=str(blocker), print_results=False, show_indicator=False)
    try:
        result = evaluate([TC], [metric], display_config=display)
    except DeepEvalError as exc:
        assert CountingMetric.measures == 0 or getattr(exc, "result", None) is not None
        assert "results" in str(exc)
    else:
        assert result.test_results[0].metrics_data[0].score == 1.0


def test_cache_hit_when_the_same_mode_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = UserLLM()
    s1 = UserSystemOne(lambda state, qs: (confident_answers(qs), 0.0))
    display = DisplayConfig(print_results=False, show_indicator=False)
    cache = CacheConfig(write_cache=True, use_cache=True, cache_path="cache.sqlite")
    first = evaluate(
        [TC],
        [AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")],
        display_config=display,
        cache_config=cache,
    )
    assert first.test_results[0].metrics_data[0].cached is False
    calls = (llm.calls, s1.calls)
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "hybrid")
    second = evaluate(
        [TC],
        [AnswerRelevancyMetric(model=llm, system_one_model=s1)],
        display_config=display,
        cache_config=cache,
    )
    assert second.test_results[0].metrics_data[0].cached is True
    assert (llm.calls, s1.calls) == calls


def test_control_cache_never_serves_an_llm_row_to_hybrid() -> None:
    llm = UserLLM()
    s1 = UserSystemOne(lambda state, qs: (confident_answers(qs), 0.0))
    display = DisplayConfig(print_results=False, show_indicator=False)
    cache = CacheConfig(write_cache=True, use_cache=True, cache_path="cache.sqlite")
    evaluate(
        [TC],
        [AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="llm")],
        display_config=display,
        cache_config=cache,
    )
    assert s1.calls == 0
    r = evaluate(
        [TC],
        [AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode="hybrid")],
        display_config=display,
        cache_config=cache,
    )
    md = r.test_results[0].metrics_data[0]
    assert md.cached is False and s1.calls == 1 and md.evaluation_model == "user-llm + user-s1"
