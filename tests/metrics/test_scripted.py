from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion, SystemOneAnswers
from deepeval.models.usage import track_usage
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne, answers_from_values


class Reply(BaseModel):
    reason: str


def test_scripted_llm_shapes_and_counts() -> None:
    llm = ScriptedLLM(lambda p, s: ({"reason": p.upper()}, 0.5), tokens=(7, 3))
    with track_usage() as usage:
        assert llm.generate("hi", Reply) == ('{"reason": "HI"}', 0.5)
        assert asyncio.run(llm.a_generate("yo")) == ('{"reason": "YO"}', 0.5)
    assert llm.call_count == 2 and [c.method for c in llm.calls] == ["generate", "a_generate"]
    assert llm.calls[0].schema is Reply and llm.prompts == ["hi", "yo"]
    assert (usage.input_tokens, usage.output_tokens) == (14, 6)


def test_scripted_llm_sequence_and_exhaustion() -> None:
    llm = ScriptedLLM(["one", ValueError("boom")])
    assert llm.generate("a") == "one"
    with pytest.raises(ValueError, match="boom"):
        llm.generate("b")
    with pytest.raises(RuntimeError, match="ran out"):
        llm.generate("c")


def test_scripted_system_one_values() -> None:
    qs = {
        "a": NoulQuestion(instructions="x?"),
        "b": ScoreQuestion(instructions="y?", levels=["0", "1", "2", "3"]),
    }
    s1 = ScriptedSystemOne(lambda state, q: {"a": 0.7, "b": 1.7}, model_version="v9", cost=0.1, tokens=(5, 0))
    with track_usage() as usage:
        answers, cost = s1.decide({"k": 1}, qs)
    assert cost == 0.1 and answers.model == "v9"
    assert answers.nouls["a"].probability == 0.7
    score = answers.scores["b"]
    assert score.score == pytest.approx(1.7) and score.probabilities == pytest.approx(
        {0: 0.0, 1: 0.3, 2: 0.7, 3: 0.0}
    )
    assert score.top_level == 2 and score.confidence == pytest.approx(0.6)
    assert usage.system_one_requests == 1 and usage.input_tokens == 5
    assert s1.calls[0].state == {"k": 1} and s1.call_count == 1


def test_answers_from_values_rejects_mismatch() -> None:
    with pytest.raises(TypeError, match="does not fit"):
        answers_from_values({"a": NoulQuestion(instructions="x")}, {"a": "maybe"})
    assert answers_from_values({"a": NoulQuestion(instructions="x")}, {"zzz": 0.3}) == SystemOneAnswers()
