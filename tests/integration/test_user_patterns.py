"""User code written from deepeval's documentation runs unchanged: the docs' custom model (its ``__init__`` never
calls ``super().__init__()``) in every eval mode and ``async_mode``, the docs' custom metric (``measure``,
``is_successful`` and ``__name__``, no ``a_measure``) through ``evaluate``, ``assert_test`` and ``deepeval test run``,
and ``hyperparameters`` / ``identifier`` kept in the exported JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from deepeval import assert_test, evaluate
from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.metrics import AnswerRelevancyMetric, BaseMetric, KnowledgeRetentionMetric
from deepeval.models import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.system_one.schema import NoulAnswer, ScoreAnswer, SystemOneAnswers
from deepeval.test_case import ConversationalTestCase, LLMTestCase, Turn

DEEPEVAL = Path(sys.executable).parent / "deepeval"
OUT = "We offer a 30-day full refund. Our shoes are red."
CASE = LLMTestCase(input="What if these shoes don't fit?", actual_output=OUT)
CONVO = ConversationalTestCase(
    turns=[
        Turn(role="user", content="My name is Ada and I fly on the 3rd."),
        Turn(role="assistant", content="Thanks Ada, your flight on the 3rd is noted."),
    ]
)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DEEPEVAL_DISABLE_DOTENV", "1")
    for key in (
        "DEEPEVAL_EVAL_MODE",
        "OPENAI_API_KEY",
        "TYPESAFE_API_KEY",
        "USE_LOCAL_MODEL",
        "DEEPEVAL_RESULTS_FOLDER",
    ):
        monkeypatch.delenv(key, raising=False)


def _reply(prompt: str, schema: type[BaseModel]) -> dict[str, Any]:
    """What a well-behaved LLM answers for each structured request of our metrics."""
    name = schema.__name__
    if name == "Statements":
        return {"statements": ["We offer a 30-day full refund.", "Our shoes are red."]}
    if name == "Verdicts":
        return {"verdicts": [{"verdict": "yes", "reason": "on topic"}, {"verdict": "no", "reason": "colour"}]}
    if name == "Knowledge":
        return {"data": {"name": "Ada", "flight": "on the 3rd"}} if "Ada" in prompt else {"data": {}}
    if name == "KnowledgeRetentionVerdict":
        return {"verdict": "no", "reason": "it keeps the facts"}
    if name.endswith("ScoreReason"):
        return {"reason": "scored by the docs model"}
    raise AssertionError(f"unexpected schema {name}")


class CustomJudge(DeepEvalBaseLLM):
    """The docs' pattern: own attributes, no super().__init__(), generate returns a schema instance."""

    def __init__(self) -> None:
        self.model = "my-local-weights"
        self.calls = 0
        self.threads: set[str] = set()

    def load_model(self) -> str:
        return self.model

    def generate(self, prompt: str, schema: type[BaseModel]) -> BaseModel:
        self.calls += 1
        return schema(**_reply(prompt, schema))

    async def a_generate(self, prompt: str, schema: type[BaseModel]) -> BaseModel:
        return self.generate(prompt, schema)

    def get_model_name(self) -> str:
        return "Custom Judge 8B"


class CustomDecider(DeepEvalBaseSystemOneModel):
    """A System One model written the same way (no super().__init__())."""

    def __init__(self) -> None:
        self.endpoint = "in-process"
        self.calls = 0

    def load_model(self) -> str:
        return self.endpoint

    def decide(self, state: Any, questions: Any) -> tuple[SystemOneAnswers, float | None]:
        self.calls += 1
        nouls, scores = {}, {}
        for qid, q in questions.items():
            if hasattr(q, "levels"):
                top = len(q.levels) - 1
                scores[qid] = ScoreAnswer(score=float(top), probabilities={top: 1.0}, confidence=1.0)
            else:
                nouls[qid] = NoulAnswer(probability=0.9)
        return SystemOneAnswers(nouls=nouls, scores=scores), None

    async def a_decide(self, state: Any, questions: Any) -> tuple[SystemOneAnswers, float | None]:
        return self.decide(state, questions)

    def get_model_name(self) -> str:
        return "Custom Decider"


MODES = [
    ("llm", True),
    ("llm", False),
    ("hybrid", True),
    ("hybrid", False),
    ("system_one", True),
    ("system_one", False),
]


@pytest.mark.parametrize(("mode", "async_mode"), MODES)
def test_docs_custom_model_without_super_init_in_every_mode(mode: str, async_mode: bool) -> None:
    llm, s1 = CustomJudge(), CustomDecider()
    for metric, case in (
        (AnswerRelevancyMetric(model=llm, system_one_model=s1, eval_mode=mode, async_mode=async_mode), CASE),
        (
            KnowledgeRetentionMetric(model=llm, system_one_model=s1, eval_mode=mode, async_mode=async_mode),
            CONVO,
        ),
    ):
        score = metric.measure(case)
        assert metric.error is None
        assert 0.0 <= score <= 1.0
        # as deepeval 4.3.1: a judge the mode never calls reads as None
        assert metric.model is (None if mode == "system_one" else llm)
        assert metric.system_one_model is (None if mode == "llm" else s1)
        if mode == "llm":
            assert metric.evaluation_model == "Custom Judge 8B"
        elif mode == "system_one":
            assert metric.evaluation_model == "Custom Decider"
        else:
            assert "Custom Judge 8B" in str(metric.evaluation_model) and "Custom Decider" in str(
                metric.evaluation_model
            )
    if mode == "llm":
        # two statements, one relevant: 1/2; llm answers each request
        assert (
            AnswerRelevancyMetric(model=CustomJudge(), eval_mode="llm", async_mode=async_mode).measure(CASE)
            == 0.5
        )
    assert (llm.calls > 0) is (mode != "system_one")
    assert (s1.calls > 0) is (mode != "llm")


@pytest.mark.parametrize("run_async", [True, False])
def test_docs_custom_model_through_evaluate(run_async: bool) -> None:
    result = evaluate(
        [CASE],
        [AnswerRelevancyMetric(model=CustomJudge(), eval_mode="llm", async_mode=run_async)],
        async_config=AsyncConfig(run_async=run_async),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    row = result.test_results[0].metrics_data[0]
    assert (row.score, row.error, row.evaluation_model) == (0.5, None, "Custom Judge 8B")


class LatencyMetric(BaseMetric):
    """The docs' custom metric: measure, is_successful and __name__ only (no a_measure)."""

    def __init__(self, max_seconds: float = 10.0) -> None:
        self.threshold = max_seconds
        self.threads: list[int] = []

    def measure(self, test_case: LLMTestCase) -> float:
        self.threads.append(threading.get_ident())
        self.score = (
            1 if (test_case.completion_time or 0) <= self.threshold else 0
        )  # an int, as the docs allow
        self.success = self.score == 1
        return self.score

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Latency"


def test_docs_custom_metric_without_a_measure_can_be_created_and_measured() -> None:
    metric = LatencyMetric(max_seconds=2)
    assert metric.measure(LLMTestCase(input="q", actual_output="a", completion_time=1.5)) == 1
    assert metric.is_successful() is True


@pytest.mark.parametrize("run_async", [True, False])
def test_docs_custom_metric_without_a_measure_through_evaluate(run_async: bool) -> None:
    fast = LLMTestCase(input="q", actual_output="a", completion_time=0.5, name="fast")
    slow = LLMTestCase(input="q", actual_output="a", completion_time=30, name="slow")
    metric = LatencyMetric()
    result = evaluate(
        [fast, slow],
        [metric],
        async_config=AsyncConfig(run_async=run_async),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
        error_config=ErrorConfig(ignore_errors=False),
    )
    rows = [t.metrics_data[0] for t in result.test_results]
    assert [(r.name, r.score, r.success, r.error) for r in rows] == [
        ("Latency", 1.0, True, None),
        ("Latency", 0.0, False, None),
    ]
    assert [t.success for t in result.test_results] == [True, False]


def test_docs_custom_metric_measure_runs_off_the_event_loop_thread() -> None:
    import asyncio

    from deepeval.evaluate import a_evaluate

    async def main() -> tuple[int, list[int]]:
        copies: list[LatencyMetric] = []

        class Tracking(LatencyMetric):
            def measure(self, test_case: LLMTestCase) -> float:
                copies.append(self)
                return super().measure(test_case)

        await a_evaluate(
            [CASE],
            [Tracking()],
            display_config=DisplayConfig(show_indicator=False, print_results=False),
        )
        return threading.get_ident(), [t for c in copies for t in c.threads]

    loop_thread, measured_on = asyncio.run(main())
    assert measured_on and loop_thread not in measured_on


def test_docs_custom_metric_without_a_measure_through_assert_test() -> None:
    assert_test(LLMTestCase(input="q", actual_output="a", completion_time=1), [LatencyMetric()])
    with pytest.raises(AssertionError, match=r"Latency \(score: 0.0000, threshold: 10"):
        assert_test(LLMTestCase(input="q", actual_output="a", completion_time=60), [LatencyMetric()])


TEST_FILE = textwrap.dedent(
    """
    import pytest
    from deepeval import assert_test
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import LLMTestCase

    class LatencyMetric(BaseMetric):
        def __init__(self, max_seconds=10.0):
            self.threshold = max_seconds

        def measure(self, test_case):
            self.score = 1 if test_case.completion_time <= self.threshold else 0
            self.success = self.score == 1
            return self.score

        def is_successful(self):
            return self.success

        @property
        def __name__(self):
            return "Latency"

    @pytest.mark.parametrize("seconds", [0.5, 42.0])
    def test_latency(seconds):
        assert_test(LLMTestCase(input="q", actual_output="a", completion_time=seconds), [LatencyMetric()])
    """
)


def test_docs_custom_metric_without_a_measure_through_deepeval_test_run(tmp_path: Path) -> None:
    (tmp_path / "test_latency.py").write_text(TEST_FILE)
    env = {**os.environ, "DEEPEVAL_DISABLE_DOTENV": "1", "COLUMNS": "160"}
    proc = subprocess.run(
        [str(DEEPEVAL), "test", "run", "test_latency.py", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "1 passed" in out and "1 failed" in out
    assert "Latency (score: 0.0000, threshold: 10" in out
    assert "NotImplementedError" not in out and "a_measure" not in out


def test_hyperparameters_and_identifier_are_kept_in_result_json_and_html(tmp_path: Path) -> None:
    result = evaluate(
        [CASE],
        [LatencyMetric()],
        hyperparameters={"model": "gpt-4.1", "temperature": 0.2, "top_k": 5, "unused": None},
        identifier="nightly-rag",
        display_config=DisplayConfig(
            show_indicator=False, print_results=False, results_folder=str(tmp_path / "r")
        ),
    )
    assert result.identifier == "nightly-rag"
    # deepeval keeps values as strings and drops None ones
    assert result.hyperparameters == {"model": "gpt-4.1", "temperature": "0.2", "top_k": "5"}
    [json_file] = (tmp_path / "r").glob("*-*.json")
    data = json.loads(json_file.read_text())
    assert data["identifier"] == "nightly-rag"
    assert data["hyperparameters"] == {"model": "gpt-4.1", "temperature": "0.2", "top_k": "5"}
    assert json_file.name.startswith("nightly-rag-")
    [html_file] = (tmp_path / "r").glob("*.html")
    header = html_file.read_text().split('id="totals"', 1)[
        0
    ]  # title, run line and hyperparameters come first
    assert "<h1>deepeval run nightly-rag</h1>" in header
    assert "<td>temperature</td><td>0.2</td>" in header and "<td>top_k</td><td>5</td>" in header


class TeamRelevancy(AnswerRelevancyMetric):
    """A built-in metric pre-configured by a subclass with a narrower __init__ (a documented pattern)."""

    def __init__(self) -> None:
        super().__init__(threshold=0.4, model=CustomJudge(), eval_mode="llm")


@pytest.mark.parametrize("run_async", [True, False])
def test_subclass_of_a_builtin_metric_with_a_narrower_init_runs_in_evaluate(run_async: bool) -> None:
    result = evaluate(
        [CASE, CASE],
        [TeamRelevancy()],
        async_config=AsyncConfig(run_async=run_async),
        display_config=DisplayConfig(show_indicator=False, print_results=False),
    )
    rows = [t.metrics_data[0] for t in result.test_results]
    assert [(r.score, r.threshold, r.success, r.error) for r in rows] == [(0.5, 0.4, True, None)] * 2
