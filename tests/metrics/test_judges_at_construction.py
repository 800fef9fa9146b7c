"""``metric.model``, ``metric.system_one_model`` and ``metric.evaluation_model`` exist right after construction, as
in deepeval, without a key and without opening any connection."""

from __future__ import annotations

import socket

import pytest

from deepeval.metrics import AnswerRelevancyMetric, KnowledgeRetentionMetric
from deepeval.models import OpenAIModel, TypeSafeModel
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("construction opened a connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.mark.usefixtures("no_network")
def test_model_name_builds_a_client_object_without_a_key_or_a_connection() -> None:
    metric = AnswerRelevancyMetric(model="gpt-4.1-mini", eval_mode="llm")
    assert isinstance(metric.model, OpenAIModel)
    assert metric.model.get_model_name() == "gpt-4.1-mini"
    assert metric.evaluation_model == "gpt-4.1-mini"
    assert metric.system_one_model is None


@pytest.mark.usefixtures("no_network")
def test_nothing_configured_leaves_the_judges_to_the_first_measure() -> None:
    metric = KnowledgeRetentionMetric()
    assert metric.model is None and metric.system_one_model is None
    assert metric.evaluation_model is None


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize(
    ("mode", "expected"),
    [("llm", "judge-llm"), ("system_one", "judge-s1"), ("hybrid", "judge-llm + judge-s1")],
)
def test_evaluation_model_names_the_judges_the_mode_uses(mode: str, expected: str) -> None:
    llm = ScriptedLLM(lambda p, s: {}, name="judge-llm")
    s1 = ScriptedSystemOne(lambda st, qs: {}, name="judge-s1")
    metric = AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode=mode)
    assert metric.evaluation_model == expected
    assert metric.model is llm and metric.system_one_model is s1


@pytest.mark.usefixtures("no_network")
def test_system_one_model_name_builds_a_typesafe_client_without_a_key() -> None:
    metric = AnswerRelevancyMetric(system_one_model="jev-latest", eval_mode="system_one")
    assert isinstance(metric.system_one_model, TypeSafeModel)
    assert metric.evaluation_model == "jev-latest"


def test_assigning_model_replaces_the_judge() -> None:
    first, second = ScriptedLLM(lambda p, s: {}, name="a"), ScriptedLLM(lambda p, s: {}, name="b")
    metric = AnswerRelevancyMetric(model=first, eval_mode="llm")
    metric.model = second
    assert metric.model is second and metric.judges().llm is second
