"""The public metric-building API (``deepeval.metrics.pipeline``): a new LLM metric is a folder
(``toy_pipeline/``, public names only) plus one ``registry.BUILTIN`` line, and works in every eval mode through
measure, evaluate, ``deepeval evaluate --metric`` and ``deepeval judge-eval --metric`` with no edit elsewhere."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import deepeval.metrics
from deepeval.cli.main import app
from deepeval.errors import ConfigurationError
from deepeval.evaluate import evaluate
from deepeval.metrics import registry
from deepeval.metrics.declaration import MetricDeclaration
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM, ScriptedSystemOne

from .toy_pipeline import declaration as toy_declaration

runner = CliRunner()
CASE = LLMTestCase(
    input="Paris is the capital of France.",
    actual_output="Paris is the capital of France. The moon is made of green cheese.",
)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[MetricDeclaration]:
    """The toy added as this project adds a metric: one line in BUILTIN."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(registry, "BUILTIN", (*registry.BUILTIN, toy_declaration.__name__))
    monkeypatch.setattr(registry, "_loaded", None)
    yield registry.get("toy_support")


def _llm(verdicts: list[str]) -> ScriptedLLM:
    def respond(prompt: str, schema: Any) -> Any:
        name = schema.__name__
        if name == "ToyClaims":
            return {"claims": ["Paris is the capital of France.", "The moon is made of green cheese."]}
        if name == "ToyVerdicts":
            return {"verdicts": [{"verdict": v} for v in verdicts]}
        assert name == "ToyReason"
        return {"reason": "scripted"}

    return ScriptedLLM(respond)


def test_the_declaration_comes_from_the_pipeline(toy: MetricDeclaration) -> None:
    assert toy.required_params == ("input", "actual_output") and toy.takes_eval_mode
    assert toy.question_kinds == ("toy_support.all_supported", "toy_support.share")
    (task,) = toy.judge_eval
    assert task.name == "toy_support" and task.labels == ("supported", "unsupported")
    assert deepeval.metrics.ToySupportMetric is toy.load()  # type: ignore[attr-defined]


def test_llm_mode(toy: MetricDeclaration) -> None:
    llm = _llm(["yes", "no"])
    metric = toy.load()(model=llm, eval_mode="llm")
    assert metric.measure(CASE) == 0.5 and metric.reason == "scripted"
    assert [c.schema.__name__ for c in llm.calls] == ["ToyClaims", "ToyVerdicts", "ToyReason"]
    assert metric.claims == ["Paris is the capital of France.", "The moon is made of green cheese."]


def test_hybrid_mode(toy: MetricDeclaration) -> None:
    llm = _llm([])
    s1 = ScriptedSystemOne(lambda state, qs: {"u0": 0.9, "u1": 0.1})
    metric = toy.load()(model=llm, system_one_model=s1, eval_mode="hybrid")
    assert metric.measure(CASE) == 0.5
    assert [c.schema.__name__ for c in llm.calls] == ["ToyClaims", "ToyReason"]
    assert {q.kind for q in s1.calls[0].questions.values()} == {"claim_supported"}
    assert s1.calls[0].state["source"] == CASE.input


def test_system_one_mode(toy: MetricDeclaration) -> None:
    s1 = ScriptedSystemOne(lambda state, qs: {"all_supported": 0.0, "share": 3.0})
    metric = toy.load()(system_one_model=s1, eval_mode="system_one")
    assert metric.measure(CASE) == pytest.approx(1 / 3)
    assert s1.calls[0].state == {"input": CASE.input, "actual_output": CASE.actual_output}


@pytest.mark.parametrize("mode", ["hybrid", "system_one"])
def test_the_embedded_default_answers_offline(toy: MetricDeclaration, mode: str) -> None:
    metric = toy.load()(eval_mode=mode)
    score = metric.measure(CASE)
    assert 0.0 < score < 1.0 and "embedded" in (metric.evaluation_model or "")
    if mode == "hybrid":
        assert [v["decided_by"] for v in metric.verdicts] == ["embedded", "embedded"]
        assert metric.verdicts[0]["p_yes"] > 0.5 > metric.verdicts[1]["p_yes"]


def test_evaluate_and_the_cli(toy: MetricDeclaration, tmp_path: Path) -> None:
    result = evaluate([CASE], [toy.load()()])
    (row,) = result.test_results[0].metrics_data
    assert row.name == "ToySupport" and row.score is not None and 0.0 < row.score < 1.0
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"input": CASE.input, "actual_output": CASE.actual_output}) + "\n")
    csv = tmp_path / "rows.csv"
    out = runner.invoke(
        app, ["evaluate", str(path), "--metric", "toy_support", "--no-progress", "--csv", str(csv)]
    )
    assert out.exit_code == 0, out.output
    assert csv.read_text(encoding="utf-8").count("ToySupport") == 1


def test_judge_eval(toy: MetricDeclaration, tmp_path: Path) -> None:
    item = {
        "id": "t1",
        "kind": "toy_support",
        "input": CASE.input,
        "actual_output": CASE.actual_output,
        "claims": [
            {"text": "Paris is the capital of France.", "label": "supported"},
            {"text": "The moon is made of green cheese.", "label": "unsupported", "tags": ["made_up"]},
        ],
    }
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps(item) + "\n")
    report = tmp_path / "report.json"
    out = runner.invoke(app, ["judge-eval", str(path), "--metric", "toy_support", "--json", str(report)])
    assert out.exit_code == 0, out.output
    assert "positive label: supported (1 of 2)" in out.output
    summary = json.loads(report.read_text(encoding="utf-8"))["summary"]
    assert summary["binary"]["accuracy"] == 1.0
    path.write_text(json.dumps({**item, "claims": [{"text": "x", "label": "maybe"}]}) + "\n")
    out = runner.invoke(app, ["judge-eval", str(path), "--metric", "toy_support"])
    assert out.exit_code == 2 and "must be one of supported, unsupported; got 'maybe'" in out.output


def test_a_kind_no_offline_tier_answers_is_a_configuration_error(toy: MetricDeclaration) -> None:
    cls = toy.load()
    own = replace(cls.pipeline, question=replace(cls.pipeline.question, kind="toy_support.own_kind"))
    unmeasured = type("UnmeasuredToy", (cls,), {"pipeline": own})
    for mode in ("hybrid", "system_one"):
        with pytest.raises(ConfigurationError, match=r"no measured answer.*OPENAI_API_KEY") as info:
            unmeasured(eval_mode=mode).measure(CASE)
        assert ("toy_support.own_kind" if mode == "hybrid" else "toy_support.all_supported") in str(
            info.value
        )
    llm = _llm(["yes", "yes"])
    assert unmeasured(model=llm, eval_mode="llm").measure(CASE) == 1.0  # an LLM decides: nothing is refused


@pytest.mark.parametrize("gap", ["none", "whole question without offline rule", "unit kind of its own"])
def test_the_offline_tier_is_derived_from_the_pipeline(monkeypatch: pytest.MonkeyPatch, gap: str) -> None:
    """``has_offline_tier()`` follows what the embedded judge answers: a pipeline change flips it, no flag to edit."""
    pipeline = toy_declaration.PIPELINE
    if gap == "whole question without offline rule":
        first, second = pipeline.whole_metric
        pipeline = replace(pipeline, whole_metric=(replace(first, offline=None), second))
    elif gap == "unit kind of its own":
        pipeline = replace(pipeline, question=replace(pipeline.question, kind="toy_support.own_kind"))
    (declared,) = toy_declaration.DECLARATIONS
    monkeypatch.setattr(registry, "_loaded", None)
    registry.register_metric(replace(declared, pipeline=pipeline))
    try:
        variant = registry.get("toy_support")
        assert variant.asked_kinds == (*variant.question_kinds, pipeline.question.kind)
        assert variant.has_offline_tier() is (gap == "none")
    finally:
        registry.unregister_metric("toy_support")


def test_a_fresh_process_asks_the_embedded_judge_a_metric_kind_without_importing_the_metrics() -> None:
    code = (
        "import sys\n"
        "from deepeval.models.embedded import get_embedded_judge\n"
        "from deepeval.models.system_one.schema import NoulQuestion\n"
        "assert 'deepeval.metrics' not in sys.modules\n"
        "q = NoulQuestion(instructions='x', kind='answer_relevancy.all_relevant')\n"
        "answers, _ = get_embedded_judge().decide({'input': 'How do I boil an egg?', "
        "'actual_output': 'Boil it for nine minutes.'}, {'q': q})\n"
        "print(round(answers.nouls['q'].probability, 3))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert 0.5 < float(out.stdout.strip()) <= 1.0
