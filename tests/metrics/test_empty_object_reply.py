"""A judge that answers every prompt with a JSON object lacking the asked fields (``{}``) fails the metric with a
StructuredOutputError; it never passes as "nothing to judge" (an empty statement or fact list scores 1.0)."""

from __future__ import annotations

from typing import Any

import pytest

from deepeval.errors import StructuredOutputError
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.metrics.base_metric import BaseMetric
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn


class ObjectReplyLLM(DeepEvalBaseLLM):
    """A user-style custom model (no ``super().__init__()``) that always replies ``reply``."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls = 0

    def load_model(self) -> Any:
        return None

    def generate(self, prompt: str) -> str:
        self.calls += 1
        return self.reply

    async def a_generate(self, prompt: str) -> str:
        return self.generate(prompt)

    def get_model_name(self) -> str:
        return "object-reply"


SINGLE = LLMTestCase(
    input="What is the refund window?",
    actual_output="Refunds are accepted within 30 days. Shipping is free.",
    retrieval_context=["Refunds are accepted within 30 days of delivery."],
)
CONVERSATION = ConversationalTestCase(
    turns=[
        Turn(role="user", content="I'm Maya and my shoe size is 38."),
        Turn(role="assistant", content="Thanks Maya, noted."),
        Turn(role="user", content="Which trainers would fit me?"),
        Turn(role="assistant", content="These trainers come in size 42."),
    ]
)


def _metric(kind: type[BaseMetric], llm: DeepEvalBaseLLM, mode: str) -> BaseMetric:
    return kind(model=llm, eval_mode=mode, async_mode=False)  # type: ignore[call-arg]


@pytest.mark.parametrize("reply", ["{}", '{"unexpected": true}'])
@pytest.mark.parametrize("mode", ["llm", "hybrid"])
@pytest.mark.parametrize(
    ("kind", "case"),
    [
        (AnswerRelevancyMetric, SINGLE),
        (ContextualRelevancyMetric, SINGLE),
        (KnowledgeRetentionMetric, CONVERSATION),
    ],
)
def test_reply_without_the_asked_fields_is_a_structured_output_error(
    kind: type[BaseMetric], case: Any, mode: str, reply: str
) -> None:
    llm = ObjectReplyLLM(reply)
    metric = _metric(kind, llm, mode)
    with pytest.raises(StructuredOutputError, match="object-reply"):
        metric.measure(case)
    assert metric.success is not True
    assert llm.calls == 2  # the first reply and exactly one re-ask


def test_a_huge_non_json_reply_fails_fast_instead_of_being_repaired() -> None:
    from deepeval.models.structured import REPAIR_MAX_CHARS, parse_json_text

    llm = ObjectReplyLLM("a" * (REPAIR_MAX_CHARS * 20))
    metric = _metric(AnswerRelevancyMetric, llm, "llm")
    with pytest.raises(StructuredOutputError, match="replies over 1,000,000 are not repaired"):
        metric.measure(SINGLE)
    assert llm.calls == 2
    # a huge reply that is valid JSON still parses
    assert (
        parse_json_text('{"statements": ["' + "b" * (REPAIR_MAX_CHARS * 2) + '"]}')["statements"][0][:3]
        == "bbb"
    )
