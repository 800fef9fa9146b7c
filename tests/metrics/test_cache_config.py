"""``cache_config()`` holds the RESOLVED eval mode and judge names, and computing it builds no client, loads no
embedded model and contacts nothing."""

from __future__ import annotations

import json

import pytest

from deepeval.config.eval_mode import EvalMode
from deepeval.evaluate.cache import cache_key
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .helpers import router

CASE = LLMTestCase(input="q?", actual_output="A.", retrieval_context=["ctx"])


@pytest.fixture
def nothing_resolved(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a: object, **k: object) -> None:
        raise AssertionError("a judge was resolved while computing the cache config")

    for name in ("build_llm", "build_system_one", "deterministic_extractor"):
        monkeypatch.setattr(f"deepeval.metrics._engine.judges.{name}", boom)
    monkeypatch.setattr("deepeval.models.resolve.embedded_judge", boom)


def judges() -> tuple[ScriptedLLM, ScriptedSystemOne]:
    return ScriptedLLM(router(), name="judge-a"), ScriptedSystemOne(lambda s, q: {}, name="jev-x")


@pytest.mark.parametrize("mode", ["llm", "hybrid", "system_one"])
def test_mode_from_argument_or_environment_gives_the_same_config_and_key(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    llm, s1 = judges()
    by_argument = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode=mode)
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", mode.upper())
    by_env = AnswerRelevancyMetric(model=llm, system_one_model=s1)
    assert by_env.cache_config() == by_argument.cache_config()
    assert by_env.cache_config()["eval_mode"] == mode
    assert cache_key(by_env, CASE) == cache_key(by_argument, CASE)
    assert by_env.eval_mode is EvalMode(mode) and by_argument.eval_mode is EvalMode(mode)


def test_config_is_the_same_before_and_after_the_first_measure() -> None:
    s1 = ScriptedSystemOne(lambda s, q: {"all_relevant": 0.9, "addresses_input": 0.9, "relevant_share": 3.0})
    metric = AnswerRelevancyMetric(system_one_model=s1, eval_mode="system_one")
    before, key_before = metric.cache_config(), cache_key(metric, CASE)
    metric.measure(CASE)
    assert metric.cache_config() == before and cache_key(metric, CASE) == key_before
    assert metric.fresh_copy().cache_config() == before


@pytest.mark.usefixtures("nothing_resolved")
def test_defaults_are_named_from_settings_without_building_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing configured: hybrid on the embedded judge with deterministic extraction
    cfg = ContextualRelevancyMetric().cache_config()
    assert cfg["eval_mode"] == "hybrid"
    assert cfg["judges"] == {"llm": None, "system_one": "embedded", "extractor": "deterministic"}
    # an OpenAI key (never in the config) makes llm the default
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-SECRET-abcdef123456")
    cfg = AnswerRelevancyMetric().cache_config()
    assert cfg["eval_mode"] == "llm"
    assert cfg["judges"] == {"llm": "openai:default", "system_one": None, "extractor": None}
    monkeypatch.setenv("OPENAI_MODEL_NAME", "gpt-other")
    monkeypatch.setenv("TYPESAFE_API_KEY", "ts-SECRET-987654")
    monkeypatch.setenv("TYPESAFE_MODEL_NAME", "jev-2026")
    cfg = KnowledgeRetentionMetric(eval_mode="hybrid").cache_config()
    assert cfg["judges"] == {"llm": "openai:gpt-other", "system_one": "typesafe:jev-2026", "extractor": None}
    text = json.dumps(cfg)
    assert "SECRET" not in text
    # explicit strings name the model without constructing it
    cfg = AnswerRelevancyMetric(model="gpt-4", system_one_model="Embedded", eval_mode="hybrid").cache_config()
    assert cfg["judges"] == {"llm": "openai:gpt-4", "system_one": "embedded", "extractor": None}
    cfg = AnswerRelevancyMetric(system_one_model="jev-latest", eval_mode="system_one").cache_config()
    assert cfg["judges"] == {"llm": None, "system_one": "typesafe:jev-latest", "extractor": None}


@pytest.mark.usefixtures("nothing_resolved")
def test_local_model_and_changed_judges_change_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
    monkeypatch.setenv("LOCAL_MODEL_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LOCAL_MODEL_NAME", "qwen")
    local = AnswerRelevancyMetric().cache_config()
    assert (
        local["eval_mode"] == "llm" and local["judges"]["llm"] == "local:qwen@http://127.0.0.1:9/v1"
    )  # the server is part of the judge
    monkeypatch.setenv("LOCAL_MODEL_NAME", "llama")
    assert AnswerRelevancyMetric().cache_config() != local


def test_invalid_environment_mode_still_gives_a_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPEVAL_EVAL_MODE", "turbo")
    metric = AnswerRelevancyMetric()
    cfg = metric.cache_config()
    assert cfg["eval_mode"] is None and cfg["judges"] == "unresolved: InvalidEvalModeError"
    assert metric.eval_mode is None


def test_assigning_eval_mode_re_resolves() -> None:
    llm, s1 = judges()
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1)
    assert metric.eval_mode is EvalMode.LLM and metric.judges().mode is EvalMode.LLM
    metric.eval_mode = "hybrid"  # type: ignore[assignment]
    assert metric.eval_mode is EvalMode.HYBRID and metric.judges().mode is EvalMode.HYBRID
    assert metric.cache_config()["judges"] == {"llm": "judge-a", "system_one": "jev-x", "extractor": None}
