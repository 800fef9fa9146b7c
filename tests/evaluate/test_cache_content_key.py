"""Cache keys come from content: the prompt text a metric actually sends, its questions, the embedded judge's files
and the judge names. A changed text misses the cache without anyone bumping a version label; identical content
keeps the key."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from deepeval import _digest
from deepeval.evaluate.cache import cache_key
from deepeval.memory import prompts
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.metrics import MemoryRecallMetric
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.metrics.answer_relevancy import AnswerRelevancyTemplate
from deepeval.metrics.pipeline import PipelineQuestions
from deepeval.test_case import LLMTestCase

CASE = LLMTestCase(input="What is the capital of France?", actual_output="Paris is the capital.")


def _hybrid() -> AnswerRelevancyMetric:
    return AnswerRelevancyMetric(eval_mode="hybrid", system_one_model="embedded")


def test_identical_content_keeps_the_key() -> None:
    assert cache_key(_hybrid(), CASE) == cache_key(_hybrid(), CASE)


def test_changed_prompt_text_changes_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache_key(_hybrid(), CASE)
    label = AnswerRelevancyTemplate.PROMPT_VERSION
    original = AnswerRelevancyTemplate.generate_verdicts

    def edited(input: str, statements: list[str]) -> str:
        return original(input, statements) + "\nBe strict."

    monkeypatch.setattr(AnswerRelevancyTemplate, "generate_verdicts", staticmethod(edited))
    assert AnswerRelevancyTemplate.PROMPT_VERSION == label  # nobody bumped the label
    assert cache_key(_hybrid(), CASE) != before
    monkeypatch.undo()
    assert cache_key(_hybrid(), CASE) == before


def test_bumped_label_alone_changes_nothing_but_the_label(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _hybrid().cache_config()
    monkeypatch.setattr(AnswerRelevancyTemplate, "PROMPT_VERSION", "answer_relevancy/relabelled")
    after = _hybrid().cache_config()
    assert after["prompt_digest"] == before["prompt_digest"]
    assert after["prompt_version"] == "answer_relevancy/relabelled"


def test_changed_question_text_changes_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache_key(_hybrid(), CASE)
    pipeline = AnswerRelevancyMetric.pipeline
    edited = replace(
        pipeline, question=replace(pipeline.question, text=pipeline.question.text + " Answer carefully.")
    )
    monkeypatch.setattr(AnswerRelevancyMetric, "default_question_set", PipelineQuestions(edited))
    assert cache_key(_hybrid(), CASE) != before


def _copy_embedded(tmp_path: Path) -> Path:
    root = tmp_path / "embedded"
    shutil.copytree(_digest.EMBEDDED_DIR, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_embedded_judge_data_file_and_rule_code_are_in_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = cache_key(_hybrid(), CASE)
    root = _copy_embedded(tmp_path)
    monkeypatch.setattr(_digest, "EMBEDDED_DIR", root)
    assert cache_key(_hybrid(), CASE) == before  # same files, same key
    data = root / "data" / "embedded_judge.json"
    data.write_bytes(data.read_bytes().rstrip() + b"\n\n")  # a retrained judge: only the bytes differ
    retrained = cache_key(_hybrid(), CASE)
    assert retrained != before
    rules = root / "grading" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a rule edited\n")
    assert cache_key(_hybrid(), CASE) not in (before, retrained)


def test_llm_only_metric_key_ignores_the_embedded_judge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    metric = AnswerRelevancyMetric(model="gpt-4.1", eval_mode="llm")
    before = cache_key(metric, CASE)
    root = _copy_embedded(tmp_path)
    (root / "data" / "embedded_judge.json").write_text("{}")
    monkeypatch.setattr(_digest, "EMBEDDED_DIR", root)
    assert cache_key(metric, CASE) == before


def test_memory_probe_instruction_is_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    metric = MemoryRecallMetric(model=EmbeddedMemoryJudge())
    before = metric.cache_config()
    assert "embedded_judge_digest" in before
    monkeypatch.setattr(prompts, "PROBE_INSTRUCTION", prompts.PROBE_INSTRUCTION + " Be brief.")
    assert metric.cache_config()["prompt_digest"] != before["prompt_digest"]
    monkeypatch.undo()
    assert metric.cache_config() == before


def test_judge_names_are_read_from_our_metrics_and_custom_ones() -> None:
    from deepeval.metrics import BaseMetric
    from deepeval.models.resolve import judge_names_of

    ours = AnswerRelevancyMetric(model="gpt-4.1", eval_mode="hybrid", system_one_model="embedded")
    assert judge_names_of(ours) == {"model": "gpt-4.1", "system_one_model": "embedded", "eval_mode": "hybrid"}

    class Custom(BaseMetric):
        def __init__(self, model: str) -> None:
            self.model = model
            self.threshold = 0.5

    assert judge_names_of(Custom("gpt-4o-mini")) == {"model": "gpt-4o-mini"}
    assert cache_key(Custom("gpt-4o-mini"), CASE) != cache_key(Custom("gpt-4.1"), CASE)


@pytest.mark.regression
def test_the_judge_server_is_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers serving the same model name are two judges: the second must not get the first one's cached
    answers with no request sent (issue 42 item 7). Credentials in the URL are not part of the name."""
    from deepeval.models import LocalModel

    tc = LLMTestCase(input="q", actual_output="a")

    def key(base_url: str) -> str:
        judge = LocalModel(model="same-name", base_url=base_url, api_key="k")
        return cache_key(AnswerRelevancyMetric(model=judge, eval_mode="llm"), tc)

    a, b = key("http://127.0.0.1:8001/v1"), key("http://127.0.0.1:8002/v1")
    assert a != b
    assert key("http://127.0.0.1:8001/v1") == a
    assert key("http://user:pw@127.0.0.1:8001/v1?token=t") == a

    def settings_key(base_url: str) -> str:
        monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
        monkeypatch.setenv("LOCAL_MODEL_NAME", "same-name")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", base_url)
        return cache_key(AnswerRelevancyMetric(eval_mode="llm"), tc)

    assert settings_key("http://127.0.0.1:8001/v1") != settings_key("http://127.0.0.1:8002/v1")
