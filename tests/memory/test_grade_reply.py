"""The LLM memory grader's reply schema puts the reason before the score. Asked for the score first,
Qwen2.5-Coder-1.5B-Instruct graded all 8 blind-dev answers of a run 2 (exact 0.25 against the labels); reason first,
0.625 on the same items (bench/RESULTS.md, real-model section)."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.memory import prompts
from deepeval.memory.judges import LLMMemoryJudge, _GradeOut
from deepeval.testing.scripted import ScriptedLLM


def test_the_grade_reply_lists_the_reason_before_the_score() -> None:
    assert list(_GradeOut.model_fields) == ["reason", "score"]
    assert list(_GradeOut.model_json_schema()["properties"]) == [
        "reason",
        "score",
    ]  # a grammar decodes in this order
    prompt = prompts.grade_prompt("How does Maya relieve stress?", "through dance", "by dancing", [])
    assert prompt.rstrip().endswith('"score": <1-5>}') and prompt.index('"reason"') < prompt.index('"score"')


@pytest.mark.parametrize(
    ("reply", "score"),
    [
        # the model's actual replies, score-first (before) and reason-first (after)
        (
            '{"score": 2, "reason": "The answer addresses the fact but is materially wrong. The expected answer is '
            "'through dance', while the given answer is 'by dancing'.\"}",
            2,
        ),
        (
            "{\"reason\": \"The answer 'by dancing' is a paraphrase of 'through dance', which is the expected "
            'answer.", "score": 5}',
            5,
        ),
    ],
)
def test_the_real_models_grade_replies_parse(reply: str, score: int) -> None:
    judge = LLMMemoryJudge(ScriptedLLM(lambda prompt, schema: reply))
    graded = asyncio.run(judge.grade("How does Maya relieve stress?", "through dance", "by dancing", []))
    assert graded.score == score and graded.reason.startswith("The answer")


def test_the_llm_memory_judge_is_named_by_its_llm() -> None:
    assert LLMMemoryJudge(ScriptedLLM(["{}"], name="judge-x")).get_model_name() == "judge-x"

    class Broken(ScriptedLLM):
        def get_model_name(self) -> str:
            raise RuntimeError("no name")

    # the one naming rule (base_model.judge_name): a broken get_model_name falls back to the class name
    assert LLMMemoryJudge(Broken(["{}"])).get_model_name() == "Broken"
    import deepeval.models.structured as structured

    assert not hasattr(structured, "model_name")  # the alias kept only for the memory judge is gone
