"""A custom LLM that writes only ``generate`` (its ``a_generate`` raises ``NotImplementedError``) works with
``async_mode=True``: the structured layer calls ``generate`` in a worker thread (``models/structured.py``)."""

from __future__ import annotations

import asyncio
import threading
from decimal import Decimal
from typing import Any

import pytest

from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.metrics._engine.schemas import ReasonReply
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.models.structured import a_generate_structured, a_generate_text
from deepeval.test_case import LLMTestCase

from .helpers import router

CASE = LLMTestCase(input="q?", actual_output="A. B.", retrieval_context=["A.", "B."])


class GenerateOnly(DeepEvalBaseLLM):
    """Answers through ``router``; ``a_generate`` is not implemented. ``with_schema=False``: ``generate(prompt)``."""

    def __init__(self, with_schema: bool = True, sync_broken: bool = False) -> None:
        self.respond = router(statements=["A.", "B."], verdicts=["yes", "no"], reason="sync reason")
        self.threads: list[int] = []
        self.sync_broken = sync_broken
        if not with_schema:
            self.generate = self._generate_no_schema  # type: ignore[method-assign]
        super().__init__("generate-only")

    def load_model(self, *args: Any, **kwargs: Any) -> None:
        return None

    def generate(self, prompt: str, schema: Any = None) -> Any:
        if self.sync_broken:
            raise NotImplementedError
        self.threads.append(threading.get_ident())
        return self.respond(prompt, schema)

    def _generate_no_schema(self, prompt: str) -> Any:
        self.threads.append(threading.get_ident())
        return {"reason": "no-schema reason"}

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        raise NotImplementedError("use generate")

    def get_model_name(self) -> str:
        return "generate-only"


@pytest.mark.parametrize("cls", [AnswerRelevancyMetric, ContextualRelevancyMetric])
def test_async_mode_uses_generate_in_a_thread_and_matches_sync(cls: type[Any]) -> None:
    async_llm, sync_llm = GenerateOnly(), GenerateOnly()
    a = cls(model=async_llm, eval_mode="llm", async_mode=True)
    s = cls(model=sync_llm, eval_mode="llm", async_mode=False)
    assert a.measure(CASE) == s.measure(CASE) == 0.5
    assert a.reason == s.reason == "sync reason" and a.error is None
    assert len(async_llm.threads) == len(sync_llm.threads) >= 2
    assert threading.get_ident() not in async_llm.threads  # worker threads, the loop is never blocked


def test_generate_without_schema_parameter() -> None:
    llm = GenerateOnly(with_schema=False)
    reply = asyncio.run(a_generate_structured(llm, "Explain.", ReasonReply))
    assert reply.reason == "no-schema reason"
    assert asyncio.run(a_generate_text(llm, "Explain.")) == "{'reason': 'no-schema reason'}"


def test_neither_method_implemented_is_a_clear_error() -> None:
    metric = AnswerRelevancyMetric(model=GenerateOnly(sync_broken=True), eval_mode="llm")
    with pytest.raises(NotImplementedError, match="generate-only implements neither a_generate nor generate"):
        metric.measure(CASE)
    assert (metric.success, metric.error) == (None, None)  # as deepeval 4.3.1 after a measure that raised


class CostlyModel(DeepEvalBaseLLM):
    """A custom judge returning ``(reply, cost)`` with the given cost."""

    def __init__(self, cost: Any) -> None:
        self.cost = cost
        super().__init__("costly")

    def load_model(self) -> Any:
        return self

    def generate(self, prompt: str, schema: Any = None) -> Any:
        return '{"reason": "fine"}', self.cost

    async def a_generate(self, prompt: str, schema: Any = None) -> Any:
        return self.generate(prompt, schema)

    def get_model_name(self) -> str:
        return "costly"


@pytest.mark.parametrize(
    ("cost", "recorded"),
    [
        (0.25, 0.25),
        (0, 0.0),
        (None, None),
        (float("nan"), None),
        (float("inf"), None),
        (-1.0, None),
        (True, None),
        ("0.1", None),
        ([1], None),
        ({"usd": 1}, None),
        ((0.1,), None),
        (Decimal("0.1"), None),
    ],
)
def test_a_custom_models_cost_counts_only_when_a_finite_number_at_least_0(cost: Any, recorded: Any) -> None:
    """nan / inf / -1 / True once became the row's cost ($nan made a whole run's total $nan) and a string cost made
    the reply 'invalid JSON' (outside attack 5, L2); a list or dict cost still did (outside attack 8, L6): the
    reply is used, the cost is unknown."""
    from deepeval.models.usage import track_usage

    with track_usage() as usage:
        reply = asyncio.run(a_generate_structured(CostlyModel(cost), "why?", ReasonReply))
    assert reply.reason == "fine"
    assert usage.cost == recorded


@pytest.mark.parametrize("cost", [[1], {"usd": 1}], ids=["list", "dict"])
def test_a_row_whose_custom_judge_reports_a_cost_that_is_no_number_is_scored_with_cost_unknown(
    cost: Any,
) -> None:
    """Outside attack 8, L6: GEval over a custom judge returning ``(valid JSON, [1])`` failed the row as
    "StructuredOutputError: ... invalid JSON". The row is scored from the reply; its cost is unknown."""
    from deepeval import evaluate
    from deepeval.evaluate import DisplayConfig
    from deepeval.evaluate.configs import CacheConfig
    from deepeval.metrics import GEval
    from deepeval.test_case import SingleTurnParams

    class StepsModel(CostlyModel):
        def generate(self, prompt: str, schema: Any = None) -> Any:
            return '{"steps": ["Check it."], "score": 8, "reason": "right"}', self.cost

    metric = GEval(
        name="C",
        criteria="Is the answer right?",
        evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
        model=StepsModel(cost),
    )
    result = evaluate(
        [LLMTestCase(input="2+2?", actual_output="4")],
        [metric],
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        cache_config=CacheConfig(write_cache=False, use_cache=False),
    )
    row = result.test_results[0].metrics_data[0]
    assert row.error is None and row.score == pytest.approx(0.8) and row.reason == "right"
    assert row.evaluation_cost is None and row.llm_calls >= 1
    assert result.totals()["cost_usd"] is None
