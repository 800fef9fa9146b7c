"""A custom model that keeps replying with invalid JSON: the error is a ValueError whose message starts with deepeval
4.3.1's documented sentence (code matching that text still matches), followed by our detail."""

from __future__ import annotations

import pytest

from deepeval.errors import StructuredOutputError
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase

SENTENCE = "Evaluation LLM outputted an invalid JSON. Please use a better evaluation model."


class NotJson(DeepEvalBaseLLM):
    """The docs' custom-model shape (no super().__init__), replying with prose."""

    def __init__(self) -> None:
        self.calls = 0

    def load_model(self) -> None:
        return None

    def generate(self, prompt: str) -> str:
        self.calls += 1
        return "Sure! The statements are: the sky is blue."

    async def a_generate(self, prompt: str) -> str:
        return self.generate(prompt)

    def get_model_name(self) -> str:
        return "not-json"


def test_invalid_json_from_a_custom_model_raises_deepevals_sentence_first() -> None:
    model = NotJson()
    metric = AnswerRelevancyMetric(model=model, async_mode=False)
    tc = LLMTestCase(input="What colour is the sky?", actual_output="Blue.")
    with pytest.raises(ValueError) as caught:
        metric.measure(tc)
    err = caught.value
    assert isinstance(err, StructuredOutputError)
    message = str(err)
    assert message.startswith(SENTENCE)
    assert "not-json" in message and "after one re-ask" in message  # our detail follows the sentence
    assert model.calls == 2  # the reply and the one re-ask
