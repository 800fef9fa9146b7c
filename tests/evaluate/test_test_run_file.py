"""The results file deepeval 4.3.1 documents (``test_run_<YYYYMMDD_HHMMSS>[_n].json`` per ``evaluate()`` in the results
folder, its TestRun layout), written by the user code of the docs. The expected dicts are what deepeval 4.3.1 itself
wrote for the same calls (run in its scratch virtualenv; ``runDuration`` values zeroed, they are timings)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.evaluate import DisplayConfig
from deepeval.metrics import BaseConversationalMetric, BaseMetric
from deepeval.test_case import ConversationalTestCase, LLMTestCase, ToolCall, Turn

NAME = re.compile(r"^test_run_\d{8}_\d{6}(_\d+)?\.json$")


class Has(BaseMetric):
    def __init__(self, word: str, threshold: float = 0.5) -> None:
        self.word = word
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = 1.0 if self.word in (test_case.actual_output or "") else 0.0
        self.reason = f"looked for {self.word}"
        self.success = self.score >= self.threshold
        self.evaluation_cost = 0.25
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"Has {self.word}"


class Conv(BaseConversationalMetric):
    def __init__(self, threshold: float = 0.5) -> None:
        self.threshold = threshold

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score, self.success, self.reason = 0.25, False, "conv"
        return 0.25

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return False

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Conv"


CASES = [
    LLMTestCase(
        input="q1",
        actual_output="ok yes",
        expected_output="e",
        retrieval_context=["r1"],
        context=["c1"],
        tools_called=[ToolCall(name="search", input_parameters={"q": "x"}, output="o")],
        expected_tools=[ToolCall(name="search")],
        name="first",
        tags=["t1", "t2"],
        token_cost=0.5,
        completion_time=1.25,
        metadata={"k": 1},
    ),
    LLMTestCase(input="q2", actual_output="no"),
]
CONVERSATION = ConversationalTestCase(
    turns=[
        Turn(role="user", content="hi"),
        Turn(role="assistant", content="hello", retrieval_context=["rc"]),
    ],
    scenario="greet",
    expected_outcome="greeted",
    user_description="a user",
    name="conv1",
    tags=["c"],
    comments="note",
)
EXPECTED_RUN = {
    "testCases": [
        {
            "name": "first",
            "input": "q1",
            "actualOutput": "ok yes",
            "expectedOutput": "e",
            "context": ["c1"],
            "retrievalContext": ["r1"],
            "toolsCalled": [
                {"name": "search", "type": "FUNCTION", "output": "o", "inputParameters": {"q": "x"}}
            ],
            "expectedTools": [{"name": "search", "type": "FUNCTION"}],
            "tokenCost": 0.5,
            "completionTime": 1.25,
            "tags": ["t1", "t2"],
            "flaky": False,
            "success": True,
            "metricsData": [
                {
                    "name": "Has ok",
                    "threshold": 0.5,
                    "success": True,
                    "score": 1.0,
                    "reason": "looked for ok",
                    "strictMode": False,
                    "flaky": False,
                    "evaluationCost": 0.25,
                },
                {
                    "name": "Has yes",
                    "threshold": 0.9,
                    "success": True,
                    "score": 1.0,
                    "reason": "looked for yes",
                    "strictMode": False,
                    "flaky": False,
                    "evaluationCost": 0.25,
                },
            ],
            "runDuration": 0.0,
            "evaluationCost": 0.5,
            "order": 0,
            "metadata": {"k": 1},
        },
        {
            "name": "test_case_1",
            "input": "q2",
            "actualOutput": "no",
            "flaky": False,
            "success": False,
            "metricsData": [
                {
                    "name": "Has ok",
                    "threshold": 0.5,
                    "success": False,
                    "score": 0.0,
                    "reason": "looked for ok",
                    "strictMode": False,
                    "flaky": False,
                    "evaluationCost": 0.25,
                },
                {
                    "name": "Has yes",
                    "threshold": 0.9,
                    "success": False,
                    "score": 0.0,
                    "reason": "looked for yes",
                    "strictMode": False,
                    "flaky": False,
                    "evaluationCost": 0.25,
                },
            ],
            "runDuration": 0.0,
            "evaluationCost": 0.5,
            "order": 1,
        },
    ],
    "conversationalTestCases": [],
    "metricsScores": [
        {"metric": "Has ok", "scores": [1.0, 0.0], "passes": 1, "fails": 1, "errors": 0},
        {"metric": "Has yes", "scores": [1.0, 0.0], "passes": 1, "fails": 1, "errors": 0},
    ],
    "hyperparameters": {"model": "m1", "k": "3"},
    "prompts": [],
    "testPassed": 1,
    "testFailed": 1,
    "runDuration": 0.0,
    "evaluationCost": 1.0,
    "official": False,
}
EXPECTED_CONVERSATION = {
    "testCases": [],
    "conversationalTestCases": [
        {
            "name": "conv1",
            "success": False,
            "metricsData": [
                {
                    "name": "Conv",
                    "threshold": 0.5,
                    "success": False,
                    "score": 0.25,
                    "reason": "conv",
                    "strictMode": False,
                    "flaky": False,
                }
            ],
            "runDuration": 0.0,
            "turns": [
                {"role": "user", "content": "hi", "order": 0},
                {"role": "assistant", "content": "hello", "order": 1, "retrievalContext": ["rc"]},
            ],
            "order": 0,
            "scenario": "greet",
            "expectedOutcome": "greeted",
            "userDescription": "a user",
            "comments": "note",
            "tags": ["c"],
            "flaky": False,
        }
    ],
    "metricsScores": [{"metric": "Conv", "scores": [0.25], "passes": 0, "fails": 1, "errors": 0}],
    "prompts": [],
    "testPassed": 0,
    "testFailed": 1,
    "runDuration": 0.0,
    "official": False,
}


def _quiet(folder: Path | None = None) -> DisplayConfig:
    return DisplayConfig(
        results_folder=None if folder is None else str(folder), print_results=False, show_indicator=False
    )


def _read(path: Path) -> dict[str, Any]:
    def zero(o: Any) -> Any:
        if isinstance(o, dict):
            return {k: (0.0 if k == "runDuration" else zero(v)) for k, v in o.items()}
        return [zero(x) for x in o] if isinstance(o, list) else o

    return zero(json.loads(path.read_text(encoding="ascii")))


def _test_runs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith("test_run_"))


def test_each_evaluate_writes_one_test_run_file_as_deepeval_does(tmp_path: Path) -> None:
    evaluate(
        CASES,
        [Has("ok"), Has("yes", threshold=0.9)],
        display_config=_quiet(tmp_path),
        hyperparameters={"model": "m1", "k": 3},
    )
    evaluate([CONVERSATION], [Conv()], display_config=_quiet(tmp_path))
    first, second = _test_runs(tmp_path)
    assert NAME.match(first.name) and NAME.match(second.name)
    assert _read(first) == EXPECTED_RUN
    assert _read(second) == EXPECTED_CONVERSATION
    # ours beside it: the whole result (deepeval view) and the HTML report
    assert len(list(tmp_path.glob("*.html"))) == 2 and len(list(tmp_path.glob("run-*.json"))) == 2


def test_runs_in_the_same_second_get_numbered_files(tmp_path: Path) -> None:
    for _ in range(3):
        evaluate(CASES[1:], [Has("no")], display_config=_quiet(tmp_path))
    names = [p.name for p in _test_runs(tmp_path)]
    assert len(names) == 3 and all(NAME.match(n) for n in names)
    stems = {n[:24] for n in names}
    if len(stems) == 1:  # the usual case: one second
        assert sorted(names) == sorted(
            [f"{names[0][:24]}.json", f"{names[0][:24]}_2.json", f"{names[0][:24]}_3.json"]
        )


@pytest.mark.parametrize("where", ["environment", ".env.local", ".env"])
def test_the_results_folder_setting_is_read_from_the_environment_then_dotenv(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "results"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DEEPEVAL_DISABLE_DOTENV", raising=False)
    monkeypatch.delenv("ENV_DIR_PATH", raising=False)
    if where == "environment":
        monkeypatch.setenv("DEEPEVAL_RESULTS_FOLDER", str(folder))
    else:
        monkeypatch.delenv("DEEPEVAL_RESULTS_FOLDER", raising=False)
        (tmp_path / where).write_text(f"DEEPEVAL_RESULTS_FOLDER={folder}\n", encoding="utf-8")
    evaluate(CASES[1:], [Has("no")], display_config=_quiet())
    assert len(_test_runs(folder)) == 1
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    evaluate(CASES[1:], [Has("no")], display_config=_quiet())
    assert len(_test_runs(folder)) == (2 if where == "environment" else 1)  # dotenv files are not read


def test_component_level_runs_list_span_scores_as_deepeval_does(tmp_path: Path) -> None:
    """evals_iterator with an ``@observe(type="llm", metrics=[...])`` span: ``traceMetricsScores`` as 4.3.1 writes it
    (every span type, the span's rows by name); each golden's spans under its ``trace``. (The golden rows differ on
    purpose: ours measure the trace-level metric on the app's output, 4.3.1's golden test case has none.)"""
    from deepeval.dataset import EvaluationDataset, Golden
    from deepeval.evaluate import AsyncConfig
    from deepeval.tracing import observe, update_current_span

    @observe(type="llm", metrics=[Has("ok")])
    def gen(q: str) -> str:
        out = "ok " + q
        update_current_span(test_case=LLMTestCase(input=q, actual_output=out))
        return out

    @observe()
    def app(q: str) -> str:
        return gen(q)

    dataset = EvaluationDataset(goldens=[Golden(input="a"), Golden(input="b")])
    for golden in dataset.evals_iterator(
        metrics=[Has("b")], async_config=AsyncConfig(run_async=False), display_config=_quiet(tmp_path)
    ):
        app(golden.input)
    (path,) = _test_runs(tmp_path)
    data = _read(path)
    ok = {"metric": "Has ok", "scores": [1.0, 1.0], "passes": 2, "fails": 0, "errors": 0}
    assert data["traceMetricsScores"] == {
        "agent": {},
        "tool": {},
        "retriever": {},
        "llm": {"gen": {"Has ok": ok}},
        "base": {},
    }
    assert ok in data["metricsScores"]
    spans = [case["trace"]["llmSpans"] for case in data["testCases"]]
    assert [[(s["name"], s["output"], s["metricsData"][0]["score"]) for s in llm] for llm in spans] == [
        [("gen", "ok a", 1.0)],
        [("gen", "ok b", 1.0)],
    ]


class NanCost(Has):
    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        super().measure(test_case)
        self.evaluation_cost = float("nan")  # a custom metric's own bookkeeping gone wrong
        return self.score


def test_the_test_run_file_is_strict_json_when_a_cost_is_not_a_number(tmp_path: Path) -> None:
    """A custom metric's NaN cost was written as a bare NaN, which jq and JSON.parse refuse (outside attack 5, L3):
    it is unknown, so left out as every unknown cost is (a non-finite cost is no cost: models/usage.known_cost)."""

    def refuse(name: str) -> Any:
        raise ValueError(f"not strict JSON: {name}")

    evaluate(CASES[:1], [NanCost("ok")], display_config=_quiet(tmp_path))
    [path] = _test_runs(tmp_path)
    data = json.loads(path.read_text(encoding="ascii"), parse_constant=refuse)
    assert (
        "NaN" not in path.read_text(encoding="ascii")
        and "evaluationCost" not in data["testCases"][0]["metricsData"][0]
    )
