"""``metric.model``, ``metric.system_one_model`` and ``metric.evaluation_model`` exist right after construction, as
in deepeval, whether the judges are passed, named, read from settings (environment or ``.env``) or the embedded
default; building a metric never sends a request, and the name it shows is the one a measure sets."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from deepeval.metrics import (
    AnswerRelevancyMetric,
    ContextualRelevancyMetric,
    KnowledgeRetentionMetric,
)
from deepeval.models import LocalModel, OpenAIModel, TypeSafeModel
from deepeval.models.embedded import get_embedded_judge
from deepeval.models.resolve import clear_shared_clients
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne
from deepeval.testing.servers import OpenAIChatServer, SystemOneServer

EMBEDDED_HYBRID = "deepeval-local-1 deterministic extraction + deepeval-local-1 (embedded, offline)"
EMBEDDED = "deepeval-local-1 (embedded, offline)"


@pytest.fixture(autouse=True)
def _fresh_clients() -> Iterator[None]:
    clear_shared_clients()
    yield
    clear_shared_clients()


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("construction opened a connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[OpenAIChatServer, SystemOneServer]]:
    """An OpenAI and a TypeSafe server on loopback, configured through the environment."""
    with OpenAIChatServer() as llm, SystemOneServer() as s1:
        monkeypatch.setenv("OPENAI_API_KEY", "sk-construction-test")
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("TYPESAFE_API_KEY", "ts-construction-test")
        monkeypatch.setenv("TYPESAFE_BASE_URL", s1.base_url)
        yield llm, s1


def _no_requests(*servers: OpenAIChatServer | SystemOneServer) -> None:
    for server in servers:
        assert (server.counters.requests, server.counters.get_requests) == (0, 0)


@pytest.mark.usefixtures("no_network")
def test_model_name_builds_a_client_object_without_a_key_or_a_connection() -> None:
    metric = AnswerRelevancyMetric(model="gpt-4.1-mini", eval_mode="llm")
    assert isinstance(metric.model, OpenAIModel)
    assert metric.model.get_model_name() == "gpt-4.1-mini"
    assert metric.evaluation_model == "gpt-4.1-mini"
    assert metric.system_one_model is None


@pytest.mark.usefixtures("no_network")
@pytest.mark.parametrize("cls", [AnswerRelevancyMetric, ContextualRelevancyMetric, KnowledgeRetentionMetric])
def test_nothing_configured_names_the_embedded_judge_at_construction(cls: type) -> None:
    metric = cls()
    assert metric.evaluation_model == EMBEDDED_HYBRID
    assert metric.model is None  # hybrid without an LLM: the deterministic extractor stands in for it
    assert metric.system_one_model is get_embedded_judge()


def test_embedded_default_name_at_construction_is_the_name_a_measure_sets() -> None:
    case = LLMTestCase(
        input="What is the capital of France?", actual_output="Paris is the capital of France."
    )
    for mode, expected in (("hybrid", EMBEDDED_HYBRID), ("system_one", EMBEDDED)):
        metric = AnswerRelevancyMetric(eval_mode=mode)
        assert metric.evaluation_model == expected
        metric.measure(case)
        assert metric.evaluation_model == expected


def test_llm_mode_with_no_llm_names_no_judge() -> None:
    metric = AnswerRelevancyMetric(eval_mode="llm")
    assert metric.evaluation_model is None and metric.model is None and metric.system_one_model is None


def test_judges_from_environment_are_client_objects_and_no_request_is_sent(
    servers: tuple[OpenAIChatServer, SystemOneServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_MODEL_NAME", "gpt-4.1")
    expected = {"llm": "gpt-4.1", "hybrid": "gpt-4.1 + jev-latest", "system_one": "jev-latest"}
    for mode, name in expected.items():
        metric = AnswerRelevancyMetric(eval_mode=mode)
        assert metric.evaluation_model == name
        if mode == "system_one":
            assert metric.model is None
        else:
            assert isinstance(metric.model, OpenAIModel) and metric.model.get_model_name() == "gpt-4.1"
        if mode == "llm":
            assert metric.system_one_model is None
        else:
            assert isinstance(metric.system_one_model, TypeSafeModel)
    _no_requests(*servers)


def test_measure_uses_the_judge_shown_at_construction(
    servers: tuple[OpenAIChatServer, SystemOneServer],
) -> None:
    metric = AnswerRelevancyMetric(eval_mode="system_one")
    before = metric.system_one_model
    metric.measure(LLMTestCase(input="What is the capital of France?", actual_output="Paris."))
    assert metric.judges().system_one is before
    assert servers[1].counters.requests == 1  # the measure's request, and only it
    assert servers[0].counters.requests == 0
    assert metric.evaluation_model is not None and metric.evaluation_model.startswith("jev-latest")


def test_judges_from_a_dotenv_file(
    servers: tuple[OpenAIChatServer, SystemOneServer], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    llm, s1 = servers
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TYPESAFE_API_KEY", "TYPESAFE_BASE_URL"):
        monkeypatch.delenv(key)
    (tmp_path / ".env").write_text(
        f"OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL={llm.base_url}\nOPENAI_MODEL_NAME=gpt-4o-mini\n"
        f"TYPESAFE_API_KEY=ts-from-dotenv\nTYPESAFE_BASE_URL={s1.base_url}\nTYPESAFE_MODEL_NAME=jev-2\n"
    )
    monkeypatch.setenv("ENV_DIR_PATH", str(tmp_path))
    monkeypatch.delenv("DEEPEVAL_DISABLE_DOTENV")
    metric = KnowledgeRetentionMetric(eval_mode="hybrid")
    assert metric.evaluation_model == "gpt-4o-mini + jev-2"
    assert isinstance(metric.model, OpenAIModel) and metric.model.get_model_name() == "gpt-4o-mini"
    assert isinstance(metric.system_one_model, TypeSafeModel)
    assert metric.system_one_model.get_model_name() == "jev-2"
    _no_requests(llm, s1)


def test_local_model_from_settings_is_named_and_never_contacted(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIChatServer() as server:
        monkeypatch.setenv("USE_LOCAL_MODEL", "YES")
        monkeypatch.setenv("LOCAL_MODEL_BASE_URL", server.base_url)
        monkeypatch.setenv("LOCAL_MODEL_NAME", "qwen3:8b")
        assert (
            AnswerRelevancyMetric().evaluation_model == "qwen3:8b"
        )  # an LLM configured: llm mode by default
        metric = AnswerRelevancyMetric(eval_mode="hybrid")
        assert metric.evaluation_model == f"qwen3:8b + {EMBEDDED}"
        assert isinstance(metric.model, LocalModel) and metric.model.get_model_name() == "qwen3:8b"
        _no_requests(server)


def test_a_configuration_that_cannot_build_a_client_leaves_model_none_until_measure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GGUF_MODEL_PATH", str(tmp_path / "judge-q4.gguf"))  # no such file
    metric = AnswerRelevancyMetric(eval_mode="llm")
    assert metric.evaluation_model == "gguf:judge-q4"  # named from the setting, the file is not opened
    assert metric.model is None
    with pytest.raises(FileNotFoundError, match=r"judge-q4\.gguf"):
        metric.measure(LLMTestCase(input="q", actual_output="a"))
    assert metric.error is None  # as deepeval 4.3.1: the exception carries the error


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
    assert metric.model is (None if mode == "system_one" else llm)
    assert metric.system_one_model is (None if mode == "llm" else s1)


@pytest.mark.usefixtures("no_network")
def test_system_one_model_name_builds_a_typesafe_client_without_a_key() -> None:
    metric = AnswerRelevancyMetric(system_one_model="jev-latest", eval_mode="system_one")
    assert isinstance(metric.system_one_model, TypeSafeModel)
    assert metric.evaluation_model == "jev-latest"


def test_assigning_model_replaces_the_judge_and_its_name() -> None:
    first, second = ScriptedLLM(lambda p, s: {}, name="a"), ScriptedLLM(lambda p, s: {}, name="b")
    metric = AnswerRelevancyMetric(model=first, eval_mode="llm")
    metric.model = second
    assert metric.model is second and metric.judges().llm is second
    assert metric.evaluation_model == "b"
