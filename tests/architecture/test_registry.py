"""The metric registry: every declared metric has every declaration, and a toy metric that lives only in its own
folder (``toy_metric/``) works end to end once registered -- measure, evaluate, ``deepeval evaluate --metric``,
``deepeval judge-eval --metric`` and the embedded judge's question kinds -- with no edit anywhere else."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
import threading
import time
import types
import warnings
from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import deepeval.metrics
from deepeval.cli.main import app
from deepeval.errors import (
    ConfigurationError,
    InvalidTestCaseError,
    MissingTestCaseParamsError,
    SystemOneError,
)
from deepeval.evaluate import ErrorConfig, evaluate
from deepeval.judge_eval import tasks
from deepeval.metrics import BaseConversationalMetric, BaseMetric, registry
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.judge_free import JudgeFreeMetric
from deepeval.metrics.declaration import DeclarationError, MetricDeclaration, MetricLoadError, resolve
from deepeval.models.embedded import get_embedded_judge
from deepeval.models.embedded.kind_spec import KindSpec
from deepeval.models.embedded.question_kinds import spec_for, supported_kinds
from deepeval.models.system_one import kinds as K
from deepeval.models.system_one.schema import NoulQuestion
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

from .toy_metric.declaration import DECLARATION as TOY
from .toy_metric.declaration import PACKAGE as TOY_PACKAGE
from .toy_metric.names import SHARES_WORDS

runner = CliRunner()
DECLARED = registry.declarations()


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """evaluate() keeps runs (.deepeval/) and the CLI a cache in the working folder: a scratch one, not the repo."""
    monkeypatch.chdir(tmp_path)


def test_the_registry_declares_the_builtin_metrics_in_builtin_order() -> None:
    """Walked, not listed: every BUILTIN module's declarations, in BUILTIN order, then judge-eval's own task."""
    expected = [d.name for m in registry.BUILTIN for d in importlib.import_module(m).DECLARATIONS]
    assert registry.names() == tuple(expected) and len(expected) >= 5
    assert tasks.names() == (
        *(t.name for d in DECLARED for t in d.judge_eval),
        *registry.JUDGE_EVAL_OWN_TASKS,
    )


@pytest.mark.parametrize("d", DECLARED, ids=[d.name for d in DECLARED])
def test_every_metric_has_every_declaration(d: MetricDeclaration, regression_env: Path) -> None:
    cls = d.load()
    assert cls.__name__ == d.public_name and getattr(deepeval.metrics, d.public_name) is cls
    assert issubclass(cls, BaseConversationalMetric) is d.conversational and issubclass(cls, BaseMetric)
    assert registry.find(d.name) is d and registry.for_class(cls) is d
    assert d.public_name in deepeval.metrics.__all__
    fields = ConversationalTestCase.model_fields if d.conversational else LLMTestCase.model_fields
    assert d.required_params and set(d.required_params) <= set(fields)
    assert ("eval_mode" in inspect.signature(cls.__init__).parameters) is d.takes_eval_mode
    if d.user_defined:  # built from its user's definition: check_declaration refused any fixed one
        with pytest.raises(TypeError, match="required"):
            cls()
        return
    _constructs_with_its_example_args_only(d, cls)
    scored_in_code = issubclass(cls, JudgeFreeMetric)  # no judge for the score, so no judge-eval task
    for kind in d.question_kinds:
        assert kind.startswith(f"{d.name}.") and kind not in K.DECISION_KINDS
    # our metrics: whole-metric kinds come with the embedded judge's answers (offline system_one mode: a table in the
    # folder, or derived from the declared pipeline), and every metric with a measured offline tier has a labelled
    # set (its own judge-eval task, or its pipeline's); the offline tier is derived from what the judge answers
    offline = d.has_offline_tier()
    assert offline is all(spec_for(k) is not None for k in d.asked_kinds)
    assert bool(d.question_kinds) is (d.embedded_kinds is not None or d.pipeline is not None or not offline)
    assert d.judge_eval or d.pipeline is not None or scored_in_code or not offline
    if d.pipeline is not None:
        assert d.pipeline.question.kind in d.asked_kinds
        for question in d.pipeline.whole_metric:
            spec = spec_for(d.pipeline.kind_of(question))
            # a question with no measured offline tier has no embedded answer (the engine says what to configure)
            assert (spec is not None and callable(spec.probability)) is (question.offline is not None)
    # and a metric with a question no offline tier answers refuses the embedded judge up front, saying what to
    # configure (never an unmeasured score); one whose every kind is answered takes it
    # (the agent metrics refuse when the measure would ask the embedded judge an agent question: their own tests
    # measure that, with no judge and no network; a judge-free one asks nothing)
    refuses_at_measure = issubclass(cls, (AgentJudgedMetric, JudgeFreeMetric))
    if d.asked_kinds and not refuses_at_measure:
        on_embedded = cls(eval_mode="system_one", **d.example_args)
        if offline:
            assert on_embedded.judges().system_one is not None
        else:
            with pytest.raises(ConfigurationError, match=r"(?i)configure an LLM judge"):
                on_embedded.judges()
    if d.embedded_kinds is not None:
        table = resolve(d.embedded_kinds)
        assert set(table) == set(d.question_kinds)
        for kind, spec in table.items():
            assert spec.fields and callable(spec.probability) and spec_for(kind) is spec
    for task in d.judge_eval:
        assert len(task.labels) >= 2 and len(set(task.labels)) == len(task.labels)
        assert callable(resolve(task.check)) and inspect.iscoroutinefunction(resolve(task.runner))
        assert task.judge in ("metric", "memory", "system_one") and task.baseline
        assert tasks.get_task(task.name).metric is d


def test_one_judge_free_base_under_both_names() -> None:
    """The metrics scored in code share one base; its earlier module and names stay importable as the same objects."""
    from deepeval.metrics import deterministic
    from deepeval.metrics._engine import judge_free

    assert deterministic.DeterministicMetric is judge_free.JudgeFreeMetric
    assert deterministic.Judged is judge_free.Computed
    assert deterministic.check_threshold is judge_free.checked_threshold
    scored_in_code = {d.name for d in DECLARED if issubclass(d.load(), JudgeFreeMetric)}
    assert {
        "exact_match",
        "pattern_match",
        "json_correctness",
        "tool_permission",
        "agent_loop_detection",
    } <= (scored_in_code)


def test_a_metric_package_listed_in_builtin_is_declared_with_no_other_edit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The in-project way to add a metric: its folder plus one line in BUILTIN."""
    monkeypatch.setattr(registry, "BUILTIN", (*registry.BUILTIN, f"{TOY_PACKAGE}.declaration"))
    monkeypatch.setattr(registry, "_loaded", None)
    assert registry.names()[-1] == "toy_overlap" and registry.source_of("toy_overlap").startswith("built-in")
    assert deepeval.metrics.ToyOverlapMetric().measure(CASE) == pytest.approx(2 / 3)  # type: ignore[attr-defined]
    assert tasks.get_task("toy_overlap").metric is registry.get("toy_overlap")


def test_names_kinds_and_tasks_are_unique_across_the_registry() -> None:
    kinds = [k for d in DECLARED for k in d.question_kinds]
    task_names = [t.name for d in DECLARED for t in d.judge_eval]
    assert len(set(kinds)) == len(kinds) >= 9
    assert len(set(task_names)) == len(task_names)
    assert len({d.public_name for d in DECLARED}) == len(DECLARED)


FULL = {
    "input": "When does the pool open?",
    "actual_output": "At 7 am.",
    "retrieval_context": ["Opens at 7."],
    "expected_output": "At 7 am.",
}


def _constructs_with_its_example_args_only(d: MetricDeclaration, cls: type[Any]) -> None:
    """``example_args`` cannot lie: they name every required constructor argument and build the metric, and when
    there are any, the constructor refuses to build it without them (as ``deepeval evaluate --metric NAME`` would)."""
    required = {
        p.name
        for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
        if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }
    assert required <= set(d.example_args)
    assert isinstance(cls(**d.example_args), cls)
    if d.example_args:
        with pytest.raises((TypeError, ValueError)):
            cls()


@pytest.mark.parametrize("d", [d for d in DECLARED if not d.conversational], ids=lambda d: d.name)
def test_each_required_param_is_required_by_measure(d: MetricDeclaration) -> None:
    """Each required field is refused when the test case is built (``input``, as in deepeval) or by measure."""
    if d.user_defined:
        pytest.skip(
            "a user-defined metric requires the fields its definition names (tests/metrics/test_user_defined)"
        )
    for param in d.required_params:
        try:
            case = LLMTestCase(**{**FULL, param: None})
        except InvalidTestCaseError:
            continue
        with pytest.raises(MissingTestCaseParamsError, match=param):
            d.load()(**d.example_args).measure(case)


def test_memory_recall_requires_the_manifest_in_metadata() -> None:
    assert registry.get("memory_recall").required_params == ("metadata",)
    case = ConversationalTestCase(turns=[Turn(role="user", content="I live in Oslo.")])
    with pytest.raises(MissingTestCaseParamsError, match="memory_manifest"):
        registry.get("memory_recall").load()().measure(case)


# -- the toy metric, registered from its own folder ---------------------------------------------------------------
@pytest.fixture
def toy() -> Iterator[MetricDeclaration]:
    registry.register_metric(TOY)
    try:
        yield TOY
    finally:
        registry.unregister_metric(TOY.name)


CASE = LLMTestCase(input="red apple pie", actual_output="an apple pie with cream")


def _item(item_id: str, output: str, label: str) -> dict[str, str]:
    """One labelled toy item: does ``output`` overlap the input "red apple"?"""
    return {
        "id": item_id,
        "kind": "toy_overlap",
        "input": "red apple",
        "actual_output": output,
        "label": label,
    }


def test_the_toy_is_exported_and_measures_with_its_own_embedded_kind(toy: MetricDeclaration) -> None:
    metric = deepeval.metrics.ToyOverlapMetric()  # type: ignore[attr-defined]
    assert metric.measure(CASE) == pytest.approx(2 / 3)
    assert metric.success is True and metric.reason == "0.67 of the input's words are in the output"
    assert SHARES_WORDS in supported_kinds() and "ToyOverlapMetric" in deepeval.metrics.__all__
    assert registry.for_class(type(metric)) is toy


def test_the_toy_runs_in_evaluate_with_its_error_row_for_a_bad_case(toy: MetricDeclaration) -> None:
    cls = toy.load()
    result = evaluate(
        [CASE, LLMTestCase(input="red apple pie", actual_output=None)],
        [cls(threshold=0.7)],
        error_config=ErrorConfig(ignore_errors=True),
    )
    rows = [t.metrics_data[0] for t in result.test_results]
    assert rows[0].score == pytest.approx(2 / 3) and rows[0].success is False
    assert rows[1].score is None and "ToyOverlap needs actual_output" in (rows[1].error or "")


def test_the_toy_runs_from_the_cli_by_its_registry_name(toy: MetricDeclaration, tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        json.dumps({"input": "red apple pie", "actual_output": "an apple pie"})
        + "\n"
        + json.dumps({"input": "red apple pie", "actual_output": "red apple pie"})
        + "\n",
        encoding="utf-8",
    )
    csv = tmp_path / "rows.csv"
    out = runner.invoke(
        app, ["evaluate", str(path), "--metric", "toy-overlap", "--no-progress", "--csv", str(csv)]
    )
    assert out.exit_code == 0, out.output
    text = csv.read_text(encoding="utf-8")
    assert text.count("ToyOverlap") == 2 and "0.666" in text and ",1.0," in text


def test_the_toy_runs_in_judge_eval_with_its_labels_and_baseline(
    toy: MetricDeclaration, tmp_path: Path
) -> None:
    items = [
        _item("t1", "a red apple", "overlaps"),
        _item("t2", "blue sky", "disjoint"),
        _item("t3", "apple", "disjoint"),
    ]
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    report = tmp_path / "report.json"
    out = runner.invoke(app, ["judge-eval", str(path), "--metric", "toy_overlap", "--json", str(report)])
    assert out.exit_code == 0, out.output
    assert "positive label: overlaps (1 of 3)" in out.output and "(always overlaps: 0.333)" in out.output
    summary = json.loads(report.read_text(encoding="utf-8"))["summary"]
    assert summary["binary"]["accuracy"] == pytest.approx(2 / 3)  # t3: P 0.5 counts as overlaps
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**items[0], "label": "maybe"}) + "\n", encoding="utf-8")
    out = runner.invoke(app, ["judge-eval", str(bad), "--metric", "toy_overlap"])
    assert out.exit_code == 2 and "must be one of overlaps, disjoint; got 'maybe'" in out.output


def test_an_unregistered_toy_is_unknown_everywhere(tmp_path: Path) -> None:
    assert registry.find("toy_overlap") is None and spec_for(SHARES_WORDS) is None
    with pytest.raises(AttributeError, match="ToyOverlapMetric"):
        deepeval.metrics.ToyOverlapMetric  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(SystemOneError, match=r"unknown question kind 'toy_overlap\.shares_words'"):
        get_embedded_judge().decide({}, {"q": NoulQuestion(instructions="x", kind=SHARES_WORDS)})
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "a", "actual_output": "b"}) + "\n", encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(path), "--metric", "toy_overlap"], terminal_width=300)
    assert out.exit_code == 2 and "unknown metric 'toy_overlap'; use one of answer_relevancy," in out.output


def test_registering_twice_or_a_non_declaration_is_refused(toy: MetricDeclaration) -> None:
    with pytest.raises(ValueError, match="a metric called 'toy_overlap' is already declared"):
        registry.register_metric(toy)
    with pytest.raises(ValueError, match="a metric called 'answer_relevancy' is already declared"):
        registry.register_metric(registry.get("answer_relevancy"))
    with pytest.raises(TypeError, match="not a MetricDeclaration"):
        registry.register_metric("toy_overlap")  # type: ignore[arg-type]


def _entry_points(*points: EntryPoint) -> Any:
    return lambda group: [p for p in points if p.group == group]


def test_an_installed_package_declares_a_metric_by_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    good = EntryPoint("toy", f"{TOY_PACKAGE}.declaration:DECLARATIONS", registry.ENTRY_POINT_GROUP)
    broken = EntryPoint("broken", "no_such_package_xyz:DECLARATIONS", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", _entry_points(good, broken))
    monkeypatch.setattr(registry, "_loaded", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = registry.names()
    builtin = tuple(d.name for m in registry.BUILTIN for d in importlib.import_module(m).DECLARATIONS)
    assert found[-1] == "toy_overlap" and found[: len(builtin)] == builtin
    assert [str(w.message) for w in caught] == [
        "deepeval: metric plugin 'broken' (no_such_package_xyz:DECLARATIONS) was not loaded: "
        "ModuleNotFoundError: No module named 'no_such_package_xyz'"
    ]
    assert (
        registry.source_of("toy_overlap") == f"metric plugin 'toy' ({TOY_PACKAGE}.declaration:DECLARATIONS)"
    )
    assert deepeval.metrics.ToyOverlapMetric().measure(CASE) == pytest.approx(2 / 3)  # type: ignore[attr-defined]


# -- what a broken or clashing declaration does: named, left out, and nothing else breaks ----------------------------
def _variant(**changes: Any) -> MetricDeclaration:
    """The toy renamed (without its own question kind, which carries the toy's name)."""
    return replace(TOY, **{"question_kinds": (), "embedded_kinds": None, **changes})


def _plugin(monkeypatch: pytest.MonkeyPatch, *declarations: Any) -> list[str]:
    """Install ``declarations`` as one plugin's entry point (a tuple) and reload the registry; the warnings."""
    module = types.ModuleType("toy_plugin_module")
    module.DECLARATIONS = declarations  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_plugin_module", module)
    point = EntryPoint("toy-plugin", "toy_plugin_module:DECLARATIONS", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", _entry_points(point))
    monkeypatch.setattr(registry, "_loaded", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry.names()
    return [str(w.message) for w in caught]


def test_a_plugin_cannot_take_over_a_built_in_task_name_or_class_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steal_task = replace(TOY, judge_eval=(replace(TOY.judge_eval[0], name="answer_relevancy"),))
    steal_class = _variant(name="toy_two", public_name="AnswerRelevancyMetric", judge_eval=())
    caught = _plugin(monkeypatch, steal_task, steal_class)
    source = "metric plugin 'toy-plugin' (toy_plugin_module:DECLARATIONS) was not loaded"
    assert caught == [
        f"deepeval: {source}: the judge-eval task 'answer_relevancy' is already declared by 'answer_relevancy' "
        "(built-in (deepeval.metrics.answer_relevancy.declaration))",
        f"deepeval: {source}: the class name 'AnswerRelevancyMetric' is already exported for 'answer_relevancy' "
        "(built-in (deepeval.metrics.answer_relevancy.declaration))",
    ]
    assert registry.names()[-1] == "memory_precision"
    assert tasks.get_task("answer_relevancy").metric is registry.get("answer_relevancy")
    assert deepeval.metrics.AnswerRelevancyMetric is registry.get("answer_relevancy").load()


def test_malformed_declarations_are_named_and_the_good_ones_of_the_same_plugin_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad_default = _variant(name="toy_default", public_name="A", cli_default="always", judge_eval=())
    bad_name = _variant(name="My-Metric", public_name="B", judge_eval=())
    bad_path = _variant(name="toy_path", public_name="C", cls="no colon here", judge_eval=())
    caught = _plugin(monkeypatch, bad_default, "not a declaration", bad_name, bad_path, TOY)
    assert [m.split(" was not loaded: ")[1] for m in caught] == [
        "metric declaration 'toy_default': cli_default 'always' is not one of "
        "('single_turn', 'retrieval', 'conversation')",
        "a str is not a MetricDeclaration",
        "metric declaration 'My-Metric': name 'My-Metric' must be lower case letters, digits and _",
        "metric declaration 'toy_path': cls 'no colon here' must look like 'package.module:attribute'",
    ]
    assert registry.names()[-1] == "toy_overlap" and "toy_default" not in registry.names()


BAD_ARGUMENT_FIELDS = {
    "example_args not a mapping": (
        {"example_args": ["domain"]},
        "example_args must be a mapping of argument names to values",
    ),
    "example_args key not a name": (
        {"example_args": {"the domain": "pools"}},
        "example_args key 'the domain' is not a Python argument name",
    ),
    "example_args on a default run": (
        {"example_args": {"domain": "pools"}, "cli_default": "single_turn"},
        "cli_default 'single_turn' builds the metric with no arguments, but example_args says it needs some",
    ),
    "user_defined not a bool": ({"user_defined": "yes"}, "user_defined must be True or False, not a str"),
    "user-defined with a fixed definition": (
        {"user_defined": True, "cli_default": "single_turn", "embedded_kinds": "toy_two.kinds:KINDS"},
        "a user-defined metric has no embedded_kinds of its own; a user-defined metric has no cli_default of its own",
    ),
}


@pytest.mark.parametrize("label", sorted(BAD_ARGUMENT_FIELDS))
def test_check_declaration_refuses_bad_example_args_and_user_defined(label: str) -> None:
    changes, message = BAD_ARGUMENT_FIELDS[label]
    with pytest.raises(DeclarationError, match=re.escape(f"metric declaration 'toy_two': {message}")):
        registry.register_metric(_variant(name="toy_two", public_name="ToyTwo", judge_eval=(), **changes))
    assert registry.find("toy_two") is None


def test_example_args_leave_a_declaration_hashable() -> None:
    """``example_args`` is a dict, left out of the hash: a declaration without a pipeline hashes as before."""
    misuse_like = _variant(
        name="toy_two", public_name="ToyTwo", judge_eval=(), example_args={"domain": "pools"}
    )
    assert hash(misuse_like) == hash(replace(misuse_like, example_args={})) and misuse_like != replace(
        misuse_like, example_args={}
    )


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("misuse", "misuse needs constructor arguments, for example MisuseMetric(domain='swimming pools')"),
        ("json_correctness", "for example JsonCorrectnessMetric(expected_schema=Opening)"),
        ("tool_permission", "ToolPermissionMetric(denied_tools=['delete_account'])"),
        ("g_eval", "g_eval is a metric you define (GEval(name=..., ...))"),
    ],
)
def test_evaluate_names_what_a_metric_needs_when_it_cannot_be_built_by_name(
    name: str, hint: str, tmp_path: Path
) -> None:
    """``--metric NAME`` builds with no arguments; the declaration says what the metric needs instead."""
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "a", "actual_output": "b"}) + "\n", encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(path), "--metric", name], terminal_width=400)
    text = " ".join(out.output.replace("│", " ").split())
    assert out.exit_code == 2 and f"cannot construct metric '{name}'" in text
    assert f"{hint}: build it in your code and pass it as --metric your_module:metric_object" in text


def test_a_plugin_whose_class_cannot_load_is_named_and_breaks_nothing_else(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    broken = _variant(
        name="toy_broken", public_name="ToyBrokenMetric", cls="no_such_module_xyz:Metric", judge_eval=()
    )
    not_metric = _variant(
        name="toy_dict", public_name="ToyDictMetric", cls="collections:OrderedDict", judge_eval=()
    )
    assert _plugin(monkeypatch, broken, not_metric) == []  # well-formed: loading is lazy
    with pytest.raises(MetricLoadError) as info:
        deepeval.metrics.ToyBrokenMetric  # type: ignore[attr-defined]  # noqa: B018
    assert str(info.value) == (
        "metric 'toy_broken': its class 'no_such_module_xyz:Metric' cannot be imported (ModuleNotFoundError: No "
        "module named 'no_such_module_xyz'); declared by metric plugin 'toy-plugin' (toy_plugin_module:DECLARATIONS)"
    )
    with pytest.raises(
        MetricLoadError, match="'collections:OrderedDict' is a type, not a deepeval metric class"
    ):
        deepeval.metrics.ToyDictMetric  # type: ignore[attr-defined]  # noqa: B018
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exported = deepeval.metrics.__all__
    assert "ToyBrokenMetric" not in exported and "AnswerRelevancyMetric" in exported and len(caught) == 2
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "a b", "actual_output": "a"}) + "\n", encoding="utf-8")
    out = runner.invoke(app, ["evaluate", str(path), "--metric", "toy_broken"], terminal_width=300)
    assert out.exit_code == 2 and "deepeval evaluate: metric 'toy_broken': its class" in out.output
    assert "declared by metric plugin 'toy-plugin'" in out.output and "Traceback" not in out.output


def test_register_metric_refuses_a_tuple_a_bad_name_and_a_task_clash(toy: MetricDeclaration) -> None:
    with pytest.raises(TypeError, match="a tuple is not a MetricDeclaration"):
        registry.register_metric((toy, toy))  # type: ignore[arg-type]
    with pytest.raises(DeclarationError, match="name 'Toy-Two' must be lower case"):
        registry.register_metric(replace(toy, name="Toy-Two", question_kinds=(), embedded_kinds=None))
    with pytest.raises(
        DeclarationError, match="the judge-eval task 'toy_overlap' is already declared by 'toy_overlap'"
    ):
        registry.register_metric(
            replace(toy, name="toy_two", public_name="ToyTwo", question_kinds=(), embedded_kinds=None)
        )
    assert registry.source_of("toy_overlap") == "register_metric"


def _judge_eval(tmp_path: Path, task: Any, items: list[dict[str, Any]]) -> Any:
    registry.register_metric(task)
    try:
        path = tmp_path / "set.jsonl"
        path.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
        report = tmp_path / "report.json"
        out = runner.invoke(app, ["judge-eval", str(path), "--metric", "toy_overlap", "--json", str(report)])
        return out, (json.loads(report.read_text(encoding="utf-8")) if report.exists() else None)
    finally:
        registry.unregister_metric(task.name)


ITEMS = [
    _item("t1", "a red apple", "overlaps"),
    _item("t2", "blue sky", "disjoint"),
    _item("t3", "sky", "disjoint"),
]


@pytest.mark.parametrize(
    ("runner_name", "why"),
    [
        ("run_item_failing_on_t2", "RuntimeError: the toy runner broke on t2"),
        ("run_item_returning_none", "it returned NoneType, not (a list of Unit, an ItemScore or None)"),
    ],
)
def test_a_runner_that_fails_on_an_item_costs_only_that_item(
    tmp_path: Path, runner_name: str, why: str
) -> None:
    task = replace(TOY.judge_eval[0], runner=f"{TOY_PACKAGE}.judge_eval:{runner_name}")
    out, report = _judge_eval(tmp_path, replace(TOY, judge_eval=(task,)), ITEMS)
    assert out.exit_code == 0, out.output
    errors = {u["item_id"]: u["error"] for u in report["units"] if u["error"]}
    failing = {"t2"} if runner_name == "run_item_failing_on_t2" else {"t1", "t2", "t3"}
    assert set(errors) == failing and all(
        e == f"the 'toy_overlap' runner failed on this item: {why}" for e in errors.values()
    )
    assert report["summary"]["units"] == 3 and report["summary"]["errors"] == len(failing)


def test_an_item_check_that_raises_is_a_clear_file_and_line_error(tmp_path: Path) -> None:
    task = replace(TOY.judge_eval[0], check=f"{TOY_PACKAGE}.judge_eval:check_item_raising_key_error")
    out, _ = _judge_eval(tmp_path, replace(TOY, judge_eval=(task,)), ITEMS)
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert "set.jsonl:1: the 'toy_overlap' item check failed: KeyError: 'no_such_field'" in out.output


def test_judge_eval_builds_a_metric_with_only_the_keywords_its_constructor_takes(tmp_path: Path) -> None:
    out, report = _judge_eval(tmp_path, replace(TOY, cls=f"{TOY_PACKAGE}.metric:ToyNoModelMetric"), ITEMS)
    assert out.exit_code == 0, out.output
    assert report["summary"]["errors"] == 0 and report["summary"]["binary"]["accuracy"] == pytest.approx(1.0)


def test_a_metric_may_not_declare_judge_evals_own_task(monkeypatch: pytest.MonkeyPatch) -> None:
    own = replace(TOY, judge_eval=(replace(TOY.judge_eval[0], name="fact_stated"),))
    with pytest.raises(DeclarationError, match="the judge-eval task 'fact_stated' is judge-eval's own"):
        registry.register_metric(own)
    assert [m.split(" was not loaded: ")[1] for m in _plugin(monkeypatch, own)] == [
        "the judge-eval task 'fact_stated' is judge-eval's own"
    ]
    assert tasks.get_task("fact_stated").metric is None
    assert {t.name for t in tasks.JUDGE_TASKS} == registry.JUDGE_EVAL_OWN_TASKS


REENTRANT_PLUGIN = """
from dataclasses import replace

from deepeval.metrics import AnswerRelevancyMetric  # the registry is loading: it must answer, not wait for itself
from deepeval.metrics.registry import get


class StrictRelevancyMetric(AnswerRelevancyMetric):
    pass


DECLARATIONS = (
    replace(get("answer_relevancy"), name="strict_relevancy", public_name="StrictRelevancyMetric",
            cls=f"{__name__}:StrictRelevancyMetric", question_kinds=(), embedded_kinds=None, judge_eval=()),
)
"""


def _plugin_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, module: str, source: str) -> None:
    """A plugin module written to ``tmp_path`` and declared by entry point ``module:DECLARATIONS``; the registry
    is read afresh."""
    (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    point = EntryPoint(module, f"{module}:DECLARATIONS", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "entry_points", _entry_points(point))
    monkeypatch.setattr(registry, "_loaded", None)


def test_a_plugin_that_imports_a_built_in_metric_while_the_registry_loads_does_not_hang(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _plugin_file(monkeypatch, tmp_path, "toy_reentrant_plugin", REENTRANT_PLUGIN)
    found: list[tuple[str, ...]] = []
    worker = threading.Thread(target=lambda: found.append(registry.names()), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the registry deadlocked on a plugin importing from deepeval.metrics"
    assert found[0][-1] == "strict_relevancy"
    assert issubclass(deepeval.metrics.StrictRelevancyMetric, deepeval.metrics.AnswerRelevancyMetric)  # type: ignore[attr-defined]


def test_fields_of_the_wrong_type_and_reserved_names_are_refused_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_name = _variant(name="toy_a", public_name=None, judge_eval=())
    dict_task = _variant(name="toy_b", public_name="ToyB", judge_eval=({"name": "x"},))
    reserved = _variant(name="toy_c", public_name="BaseMetric", judge_eval=())
    caught = _plugin(monkeypatch, no_name, dict_task, reserved, TOY)
    assert [m.split(" was not loaded: ")[1] for m in caught] == [
        "metric declaration 'toy_a': public_name must be a string, not a NoneType",
        "metric declaration 'toy_b': judge_eval must be a tuple of JudgeEvalTask",
        "the class name 'BaseMetric' is a name of deepeval.metrics itself",
    ]
    assert registry.names()[-1] == "toy_overlap" and deepeval.metrics.BaseMetric is BaseMetric


def test_a_task_function_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    task = replace(TOY.judge_eval[0], runner=f"{TOY_PACKAGE}.judge_eval:nope")
    out, _ = _judge_eval(tmp_path, replace(TOY, judge_eval=(task,)), ITEMS)
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert (
        f"judge-eval task 'toy_overlap': runner '{TOY_PACKAGE}.judge_eval:nope' cannot be imported"
        in out.output
    )


def test_a_constructor_that_fails_in_judge_eval_names_the_metric(tmp_path: Path) -> None:
    out, _ = _judge_eval(tmp_path, replace(TOY, cls=f"{TOY_PACKAGE}.metric:ToyFailingMetric"), ITEMS)
    assert out.exit_code == 2
    assert (
        "deepeval judge-eval: cannot construct metric 'toy_overlap': ValueError: needs API key XYZ"
        in out.output
    )


def test_unregister_metric_normalises_the_name_and_refuses_what_it_did_not_add() -> None:
    registry.register_metric(TOY)
    registry.unregister_metric("Toy-Overlap")
    assert registry.find("toy_overlap") is None
    with pytest.raises(
        ValueError, match=r"'answer_relevancy' was not added by register_metric \(it is built-in"
    ):
        registry.unregister_metric("answer_relevancy")
    with pytest.raises(ValueError, match="no metric has that name"):
        registry.unregister_metric("toy_overlap")


SLOW_PLUGIN = """
import time

time.sleep(0.5)  # a slow import: another thread asks the registry meanwhile
from deepeval.metrics import AnswerRelevancyMetric  # noqa: E402
from deepeval.metrics.registry import get  # noqa: E402

DECLARATIONS = ()
"""


def test_a_slow_plugin_imported_in_one_thread_while_another_reads_the_registry_does_not_hang(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _plugin_file(monkeypatch, tmp_path, "toy_slow_plugin", SLOW_PLUGIN)
    importer = threading.Thread(target=importlib.import_module, args=("toy_slow_plugin",), daemon=True)
    reader = threading.Thread(target=registry.names, daemon=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        importer.start()
        time.sleep(0.1)
        reader.start()
        importer.join(timeout=60)
        reader.join(timeout=60)
    assert not importer.is_alive() and not reader.is_alive(), (
        "the registry and an import waited for each other"
    )
    assert registry.names()[:3] == ("answer_relevancy", "contextual_relevancy", "knowledge_retention")


def test_two_threads_cannot_both_register_one_name() -> None:
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def register() -> None:
        barrier.wait()
        try:
            registry.register_metric(TOY)
            outcomes.append("added")
        except DeclarationError:
            outcomes.append("refused")

    threads = [threading.Thread(target=register) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    registry.unregister_metric(TOY.name)
    assert sorted(outcomes) == ["added"] + ["refused"] * 7


@pytest.mark.parametrize("public_name", ["scoring", "flow", "_engine", "class", "registry"])
def test_a_metric_may_not_be_exported_under_a_name_of_the_package(public_name: str) -> None:
    with pytest.raises(
        DeclarationError, match=f"the class name '{public_name}' is a name of deepeval.metrics"
    ):
        registry.register_metric(_variant(name="toy_two", public_name=public_name, judge_eval=()))


def test_a_plugin_that_exits_on_import_is_named_and_left_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _plugin_file(monkeypatch, tmp_path, "toy_exit_plugin", 'raise SystemExit("plugin needs ~/.foo")\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert registry.names()[-1] == "memory_precision"
    assert [str(w.message) for w in caught] == [
        "deepeval: metric plugin 'toy_exit_plugin' (toy_exit_plugin:DECLARATIONS) was not loaded: SystemExit: plugin needs ~/.foo"
    ]


BAD_SCORES = {"yes": "yes", "nan": float("nan"), "above one": 1.5}


@pytest.mark.parametrize("label", sorted(BAD_SCORES))
def test_a_declared_kind_whose_scorer_gives_no_probability_is_an_invalid_output_error(
    toy: MetricDeclaration, monkeypatch: pytest.MonkeyPatch, label: str
) -> None:
    from .toy_metric import embedded

    monkeypatch.setitem(embedded.KINDS, SHARES_WORDS, KindSpec(("input",), lambda a: BAD_SCORES[label]))
    with pytest.raises(
        SystemOneError, match=r"the embedded scorer of question kind 'toy_overlap\.shares_words' gave"
    ) as info:
        get_embedded_judge().decide({"input": "a"}, {"q": NoulQuestion(instructions="x", kind=SHARES_WORDS)})
    assert info.value.kind == "invalid_output"


def test_an_embedded_kinds_table_of_the_wrong_shape_names_its_path() -> None:
    wrong = replace(TOY, name="toy_two", public_name="ToyTwo", judge_eval=(), question_kinds=("toy_two.q",),
                    embedded_kinds=f"{TOY_PACKAGE}.declaration:REQUIRED_PARAMS")  # fmt: skip
    registry.register_metric(wrong)
    try:
        with pytest.raises(
            MetricLoadError,
            match=r"embedded kinds '.*:REQUIRED_PARAMS' must map question kinds to KindSpec, not tuple",
        ):
            spec_for("toy_two.q")
    finally:
        registry.unregister_metric("toy_two")


def test_the_default_run_leaves_out_a_plugin_metric_whose_class_cannot_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    broken = _variant(name="toy_default", public_name="ToyDefault", cls="no_such_module_xyz:M", judge_eval=(),
                      cli_default="single_turn")  # fmt: skip
    _plugin(monkeypatch, broken)
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "When does the pool open?", "actual_output": "At 7 am."}) + "\n")
    out = runner.invoke(app, ["evaluate", str(path), "--no-progress"], terminal_width=300)
    assert "deepeval evaluate: left out of the default metrics: metric 'toy_default': its class" in out.output
    assert "Answer Relevancy" in out.output and out.exit_code in (0, 1)
    named = runner.invoke(app, ["evaluate", str(path), "--metric", "toy_default"], terminal_width=300)
    assert named.exit_code == 2


def test_eval_mode_for_a_metric_without_one_is_noted(toy: MetricDeclaration, tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": "red apple", "actual_output": "red apple"}) + "\n")
    out = runner.invoke(
        app, ["evaluate", str(path), "--metric", "toy_overlap", "--eval-mode", "llm", "--no-progress"]
    )
    assert (
        out.exit_code == 0 and "--eval-mode does not apply to toy_overlap (it has no eval mode)" in out.output
    )
