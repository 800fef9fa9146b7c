"""The judge plan (``models/plan.py``) is the one selection tree: over a grid of settings, arguments and eval modes
the plan chooses what the rules say, and the judges built from it, the cache key's judge names, the names a metric
shows at construction and the memory judge all agree with the plan."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from deepeval.config.eval_mode import EvalMode
from deepeval.config.settings import Settings, get_settings
from deepeval.errors import ConfigurationError
from deepeval.memory.judges import EmbeddedMemoryJudge, LLMMemoryJudge, resolve_memory_judge
from deepeval.metrics import AnswerRelevancyMetric
from deepeval.metrics._engine.judges import build_judges
from deepeval.models import LocalModel, OpenAIModel, TypeSafeModel
from deepeval.models.embedded.names import EXTRACTOR_NAME, MODEL_NAME
from deepeval.models.plan import JudgePlan, evaluation_model_name, plan_judges, plan_llm
from deepeval.models.resolve import clear_shared_clients, key_names
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

GGUF_PATH = "/nonexistent/judges/qwen-judge.gguf"

#: settings row -> (environment, expected LLM choice for model=None, expected System One choice for
#: system_one_model=None); a choice is (source, cache key name, get_model_name())
SETTINGS: dict[str, tuple[dict[str, str], tuple[str, str, str] | None, tuple[str, str, str]]] = {
    "nothing": ({}, None, ("embedded", "embedded", MODEL_NAME)),
    "openai key": (
        {"OPENAI_API_KEY": "sk-plan-test"},
        ("settings_openai", "openai:default", "gpt-5.4"),
        ("embedded", "embedded", MODEL_NAME),
    ),
    "openai key and name": (
        {"OPENAI_API_KEY": "sk-plan-test", "OPENAI_MODEL_NAME": "gpt-4.1-mini"},
        ("settings_openai", "openai:gpt-4.1-mini", "gpt-4.1-mini"),
        ("embedded", "embedded", MODEL_NAME),
    ),
    "local server beats openai": (
        {
            "USE_LOCAL_MODEL": "YES",
            "LOCAL_MODEL_BASE_URL": "http://127.0.0.1:9/v1",
            "LOCAL_MODEL_NAME": "qwen-local",
            "OPENAI_API_KEY": "sk-plan-test",
        },
        ("settings_local", "local:qwen-local@http://127.0.0.1:9/v1", "qwen-local"),
        ("embedded", "embedded", MODEL_NAME),
    ),
    "local server switched off": (
        {
            "USE_LOCAL_MODEL": "NO",
            "LOCAL_MODEL_BASE_URL": "http://127.0.0.1:9/v1",
            "OPENAI_API_KEY": "sk-plan",
        },
        ("settings_openai", "openai:default", "gpt-5.4"),
        ("embedded", "embedded", MODEL_NAME),
    ),
    "gguf beats openai": (
        {"GGUF_MODEL_PATH": GGUF_PATH, "GGUF_MODEL_MAX_TOKENS": "256", "OPENAI_API_KEY": "sk-plan-test"},
        ("settings_gguf", f"gguf:{GGUF_PATH}|max_tokens=256", "gguf:qwen-judge"),
        ("embedded", "embedded", MODEL_NAME),
    ),
    "typesafe key": (
        {"TYPESAFE_API_KEY": "ts-plan-test"},
        None,
        ("settings_typesafe", "typesafe:default", "jev-latest"),
    ),
    "typesafe key and name, openai key": (
        {
            "TYPESAFE_API_KEY": "ts-plan-test",
            "TYPESAFE_MODEL_NAME": "jev-2",
            "OPENAI_API_KEY": "sk-plan-test",
        },
        ("settings_openai", "openai:default", "gpt-5.4"),
        ("settings_typesafe", "typesafe:jev-2", "jev-2"),
    ),
}


class NamedExtractor:
    """An extractor argument (only its name matters to the plan)."""

    def get_model_name(self) -> str:
        return "extractor-x"


LLM_OBJECT = ScriptedLLM([], name="judge-llm-object")
S1_OBJECT = ScriptedSystemOne([], name="judge-s1-object")
EXTRACTOR = NamedExtractor()

#: argument -> expected choice, or None: "as the settings say"
MODELS: list[tuple[Any, tuple[str, str, str] | None]] = [
    (None, None),
    ("gpt-4o", ("openai_name", "openai:gpt-4o", "gpt-4o")),
    (LLM_OBJECT, ("object", "judge-llm-object", "judge-llm-object")),
]
SYSTEM_ONE_MODELS: list[tuple[Any, tuple[str, str, str] | None]] = [
    (None, None),
    ("deepeval-local", ("embedded", "embedded", MODEL_NAME)),
    ("jev-9", ("typesafe_name", "typesafe:jev-9", "jev-9")),
    (S1_OBJECT, ("object", "judge-s1-object", "judge-s1-object")),
]
EXTRACTORS: list[Any] = [None, EXTRACTOR]
MODES: list[str | None] = [None, "llm", "hybrid", "system_one"]

GRID = list(itertools.product(SETTINGS, range(len(MODELS)), range(len(SYSTEM_ONE_MODELS)), EXTRACTORS, MODES))


@pytest.fixture(autouse=True)
def _fresh_clients() -> Iterator[None]:
    clear_shared_clients()
    yield
    clear_shared_clients()


def _settings(row: str, monkeypatch: pytest.MonkeyPatch | None = None) -> Settings:
    env = SETTINGS[row][0]
    if monkeypatch is None:
        return Settings(values=dict(env), sources=dict.fromkeys(env, "test"))
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return get_settings()


def _triple(choice: Any) -> tuple[str, str, str | None] | None:
    return None if choice is None else (choice.source, choice.key, choice.name)


def _expected(row: str, m: int, s: int, extractor: Any, mode: str | None) -> dict[str, Any]:
    """What the selection rules say the plan is (argument > settings > none; argument > TypeSafe key > embedded; the
    eval-mode default), written out here independently of ``plan.py``."""
    _env, settings_llm, settings_s1 = SETTINGS[row]
    model, model_choice = MODELS[m]
    llm = model_choice if model is not None else settings_llm
    s1_arg, s1_choice = SYSTEM_ONE_MODELS[s]
    s1 = s1_choice if s1_arg is not None else settings_s1
    resolved = EvalMode(mode) if mode else (EvalMode.LLM if llm is not None else EvalMode.HYBRID)
    ext = None if extractor is None else ("object", "extractor-x", "extractor-x")
    if resolved is EvalMode.SYSTEM_ONE:
        return {"mode": resolved, "llm": None, "system_one": s1, "extractor": None, "problem": False}
    if resolved is EvalMode.LLM:
        return {"mode": resolved, "llm": llm, "system_one": None, "extractor": ext, "problem": llm is None}
    if ext is None and llm is None:
        ext = ("deterministic", "deterministic", EXTRACTOR_NAME)
    return {"mode": resolved, "llm": llm, "system_one": s1, "extractor": ext, "problem": False}


def _plan(row: str, m: int, s: int, extractor: Any, mode: str | None, settings: Settings) -> JudgePlan:
    return plan_judges(
        eval_mode=mode,
        model=MODELS[m][0],
        system_one_model=SYSTEM_ONE_MODELS[s][0],
        extractor=extractor,
        settings=settings,
    )


def test_the_grid_covers_every_source_and_mode() -> None:
    seen: set[tuple[str, str]] = set()
    for row, m, s, extractor, mode in GRID:
        plan = _plan(row, m, s, extractor, mode, _settings(row))
        for slot in ("llm", "system_one", "extractor"):
            choice = getattr(plan, slot)
            if choice is not None:
                seen.add((slot, choice.source))
        seen.add(("mode", plan.mode.value))
    assert seen == {
        ("llm", "object"),
        ("llm", "openai_name"),
        ("llm", "settings_openai"),
        ("llm", "settings_local"),
        ("llm", "settings_gguf"),
        ("system_one", "object"),
        ("system_one", "embedded"),
        ("system_one", "typesafe_name"),
        ("system_one", "settings_typesafe"),
        ("extractor", "object"),
        ("extractor", "deterministic"),
        ("mode", "llm"),
        ("mode", "hybrid"),
        ("mode", "system_one"),
    }


def test_the_plan_follows_the_selection_rules_over_the_grid() -> None:
    for row, m, s, extractor, mode in GRID:
        plan = _plan(row, m, s, extractor, mode, _settings(row))
        want = _expected(row, m, s, extractor, mode)
        got = {
            "mode": plan.mode,
            "llm": _triple(plan.llm),
            "system_one": _triple(plan.system_one),
            "extractor": _triple(plan.extractor),
            "problem": plan.problem is not None,
        }
        assert got == want, (row, m, s, extractor, mode)


def test_key_names_and_display_names_read_the_plan() -> None:
    for row, m, s, extractor, mode in GRID:
        settings = _settings(row)
        plan = _plan(row, m, s, extractor, mode, settings)
        keys = key_names(
            plan.mode,
            model=MODELS[m][0],
            system_one_model=SYSTEM_ONE_MODELS[s][0],
            extractor=extractor,
            settings=settings,
        )
        names = plan.display_names()
        if plan.problem is not None:
            assert keys is None and names["llm"] is None
            continue
        assert keys == {slot: None if c is None else c.key for slot, c in _slots(plan)}
        assert names == {slot: None if c is None else c.name for slot, c in _slots(plan)}
        assert plan.evaluation_model() == evaluation_model_name(
            plan.mode, llm=names["llm"], extractor=names["extractor"], system_one=names["system_one"]
        )


def _slots(plan: JudgePlan) -> list[tuple[str, Any]]:
    return [("llm", plan.llm), ("system_one", plan.system_one), ("extractor", plan.extractor)]


BUILT_TYPES = {
    "settings_openai": OpenAIModel,
    "openai_name": OpenAIModel,
    "settings_local": LocalModel,
    "typesafe_name": TypeSafeModel,
    "settings_typesafe": TypeSafeModel,
}


@pytest.mark.parametrize("row", list(SETTINGS))
def test_built_judges_are_the_planned_ones_and_report_the_planned_names(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building constructs clients only (no request, no key needed); a GGUF file is not loaded here: the builder
    is replaced by a stand-in with the name a GGUFModel for that path reports (tests/models/test_gguf.py loads a
    real one from the same settings)."""
    settings = _settings(row, monkeypatch)
    gguf_stand_in = ScriptedLLM([], name="gguf:qwen-judge")
    monkeypatch.setattr("deepeval.models.resolve.gguf_from_settings", lambda s: gguf_stand_in)
    for _row, m, s, extractor, mode in (g for g in GRID if g[0] == row):
        plan = _plan(row, m, s, extractor, mode, settings)
        if plan.problem is not None:
            with pytest.raises(ConfigurationError, match="runs in eval mode 'llm' but no LLM judge"):
                build_judges(plan, metric_name="M", settings=settings)
            continue
        judges = build_judges(plan, metric_name="M", settings=settings)
        assert judges.mode is plan.mode
        assert judges.names() == plan.display_names(), (row, m, s, extractor, mode)
        for slot, choice in _slots(plan):
            built = getattr(judges, slot)
            if choice is None:
                assert built is None
            elif choice.source == "object":
                assert built is choice.given
            elif choice.source in BUILT_TYPES:
                assert type(built) is BUILT_TYPES[choice.source]
            elif choice.source == "settings_gguf":
                assert built is gguf_stand_in
        # the same configuration builds the same shared client
        again = build_judges(plan, metric_name="M", settings=settings)
        assert (again.llm, again.system_one) == (judges.llm, judges.system_one)


@pytest.mark.parametrize("row", list(SETTINGS))
def test_a_metric_shows_keys_and_names_from_its_plan(row: str, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(row, monkeypatch)
    monkeypatch.setattr(
        "deepeval.models.resolve.gguf_from_settings", lambda s: ScriptedLLM([], name="gguf:x")
    )
    for _row, m, s, extractor, mode in (g for g in GRID if g[0] == row and g[3] is None):
        plan = _plan(row, m, s, extractor, mode, settings)
        metric = AnswerRelevancyMetric(
            model=MODELS[m][0], system_one_model=SYSTEM_ONE_MODELS[s][0], eval_mode=mode
        )
        assert metric.eval_mode is plan.mode
        assert metric.evaluation_model == plan.evaluation_model(), (row, m, s, mode)
        keys = plan.key_names()
        assert metric.cache_config()["judges"] == (
            keys if keys is not None else "unresolved: ConfigurationError"
        )


@pytest.mark.parametrize("row", list(SETTINGS))
def test_the_memory_judge_is_the_planned_llm_or_the_embedded_one(
    row: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = _settings(row, monkeypatch)
    gguf_stand_in = ScriptedLLM([], name="gguf:qwen-judge")
    monkeypatch.setattr("deepeval.models.resolve.gguf_from_settings", lambda s: gguf_stand_in)
    for model, _choice in MODELS:
        planned = plan_llm(model, settings)
        judge = resolve_memory_judge(model)
        if planned is None:
            assert isinstance(judge, EmbeddedMemoryJudge)
            continue
        assert isinstance(judge, LLMMemoryJudge)
        assert judge.get_model_name() == planned.name
        if planned.source == "object":
            assert judge.llm is model
        elif planned.source in BUILT_TYPES:
            assert type(judge.llm) is BUILT_TYPES[planned.source]
    own = EmbeddedMemoryJudge()
    assert resolve_memory_judge(own) is own  # a memory judge is used as given


def test_an_argument_of_the_wrong_type_fails_when_built_and_only_in_the_modes_that_use_it() -> None:
    settings = _settings("nothing")
    for mode in ("llm", "hybrid"):
        plan = plan_judges(eval_mode=mode, model=42, system_one_model=None, extractor=None, settings=settings)
        assert plan.llm is not None and plan.llm.source == "invalid" and plan.llm.name is None
        with pytest.raises(TypeError, match="model must be a model name or a DeepEvalBaseLLM, not int"):
            build_judges(plan, metric_name="M", settings=settings)
    plan = plan_judges(
        eval_mode="system_one", model=42, system_one_model=None, extractor=None, settings=settings
    )
    assert plan.llm is None
    assert build_judges(plan, metric_name="M", settings=settings).names()["system_one"] == MODEL_NAME
    bad_s1 = plan_judges(
        eval_mode="system_one", model=None, system_one_model=3.5, extractor=None, settings=settings
    )
    with pytest.raises(
        TypeError, match="system_one_model must be a model name or a DeepEvalBaseSystemOneModel"
    ):
        build_judges(bad_s1, metric_name="M", settings=settings)


def test_deepeval_eval_mode_setting_decides_the_plans_mode() -> None:
    settings = Settings(values={"DEEPEVAL_EVAL_MODE": "System-One", "OPENAI_API_KEY": "sk-x"}, sources={})
    plan = plan_judges(eval_mode=None, model=None, system_one_model=None, extractor=None, settings=settings)
    assert plan.mode is EvalMode.SYSTEM_ONE and plan.llm is None
    assert plan.key_names() == {"llm": None, "system_one": "embedded", "extractor": None}


def test_offline_setting_keeps_every_judge_of_the_settings_off_the_network() -> None:
    from deepeval.config.eval_mode import configured_llm
    from deepeval.models.plan import plan_judges

    keys = {"OPENAI_API_KEY": "sk-test", "TYPESAFE_API_KEY": "ts-test", "GGUF_MODEL_PATH": "/m.gguf"}
    online = Settings(values=keys, sources={})
    offline = Settings(values={**keys, "DEEPEVAL_OFFLINE": "1"}, sources={})
    assert configured_llm(online) == "gguf" and configured_llm(offline) is None
    plan = plan_judges(eval_mode=None, model=None, system_one_model=None, extractor=None, settings=offline)
    assert plan.mode is EvalMode.HYBRID and plan.llm is None
    assert plan.system_one is not None and plan.system_one.source == "embedded"
    assert plan.extractor is not None and plan.extractor.source == "deterministic"
    given = plan_judges(
        eval_mode="llm", model="gpt-4.1", system_one_model=None, extractor=None, settings=offline
    )
    assert given.llm is not None and given.llm.source == "openai_name"  # an argument still chooses
