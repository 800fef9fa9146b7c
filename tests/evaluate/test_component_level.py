"""Component-level evaluation (``EvaluationDataset.evals_iterator()`` with ``@observe(metrics=[...])`` spans), the
user code of deepeval's docs, run unchanged.

The expected values are what deepeval 4.3.1 gave for the same code (run in /work/venvs/deepeval-4.3.1 with the
same deterministic metric and judge, telemetry off, no network); where we differ on purpose the test says so and
README ("Component-level evaluation") gives the reason.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from deepeval.dataset import EvaluationDataset, Golden, get_current_golden
from deepeval.errors import DeepEvalError, MissingTestCaseParamsError, NoMetricsError
from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig, EvaluationError, EvaluationResult
from deepeval.metrics import AnswerRelevancyMetric, BaseConversationalMetric, BaseMetric
from deepeval.models import DeepEvalBaseLLM
from deepeval.test_case import LLMTestCase
from deepeval.test_run import global_test_run_manager
from deepeval.tracing import observe, trace_manager, update_current_span, update_current_trace

QUIET = DisplayConfig(show_indicator=False, print_results=False)


@pytest.fixture(autouse=True)
def _no_traces() -> Iterator[None]:
    trace_manager.clear_traces()
    yield
    trace_manager.clear_traces()


class WordCount(BaseMetric):
    """Deterministic: score = words in actual_output / 10, capped at 1 (the same class ran on deepeval 4.3.1)."""

    def __init__(self, threshold: float = 0.5, need_context: bool = False) -> None:
        self.threshold = threshold
        self.need_context = need_context

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        if self.need_context and not test_case.retrieval_context:
            raise MissingTestCaseParamsError("WordCount needs retrieval_context")
        n = len((test_case.actual_output or "").split())
        self.score = min(1.0, n / 10)
        self.reason = f"{n} words in {test_case.input!r}"
        self.success = self.score >= self.threshold
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return bool(self.success)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "WordCount"


def run(iterator: Any, body: Any) -> EvaluationResult:
    """Drive ``for golden in iterator: body(golden)`` and return the generator's return value (deepeval's too)."""
    while True:
        try:
            golden = next(iterator)
        except StopIteration as stop:
            assert isinstance(stop.value, EvaluationResult)
            return stop.value
        body(golden)


def table(result: EvaluationResult) -> list[tuple[Any, ...]]:
    return [
        (
            t.name,
            t.index,
            t.span_type,
            t.success,
            [(m.name, m.score, m.success, m.reason) for m in t.metrics_data],
        )
        for t in result.test_results
    ]


# --- the sync form: one golden at a time --------------------------------------------------------------------------
RETRIEVE_METRIC = WordCount(threshold=0.3, need_context=True)
GENERATE_METRIC = WordCount(threshold=0.5)


@observe(type="retriever", metrics=[RETRIEVE_METRIC])
def retrieve(q: str) -> list[str]:
    docs = [f"doc one about {q}", "doc two"]
    update_current_span(test_case=LLMTestCase(input=q, actual_output=" ".join(docs), retrieval_context=docs))
    return docs


@observe(type="llm", metrics=[GENERATE_METRIC], name="generator")
def generate(q: str, docs: list[str]) -> str:
    out = "short answer" if "short" in q else "a long answer with many many words in it ok"
    update_current_span(test_case=LLMTestCase(input=q, actual_output=out))
    return out


@observe()
def rag_app(q: str) -> str:
    return generate(q, retrieve(q))


GOLDENS = [Golden(input="short question"), Golden(input="long question please")]

# deepeval 4.3.1 (AsyncConfig(run_async=False)): per golden, its result (no trace-level metric: no rows), then
# its spans with metrics, llm spans before retriever spans, each named by its span and scored on the test case
# its update_current_span set; the golden fails when one of its spans fails.
EXPECTED = [
    ("test_case_0", 0, None, False, []),
    ("generator", 0, "llm", False, [("WordCount", 0.2, False, "2 words in 'short question'")]),
    ("retrieve", 0, "retriever", True, [("WordCount", 0.7, True, "7 words in 'short question'")]),
    ("test_case_1", 1, None, True, []),
    ("generator", 1, "llm", True, [("WordCount", 1.0, True, "10 words in 'long question please'")]),
    ("retrieve", 1, "retriever", True, [("WordCount", 0.8, True, "8 words in 'long question please'")]),
]


def test_sync_form_measures_each_span_on_its_own_test_case() -> None:
    dataset = EvaluationDataset(goldens=GOLDENS)
    iterator = dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=QUIET)
    result = run(iterator, lambda g: rag_app(g.input))
    # Ours on purpose: the goldens are test_case_0/1 (deepeval's sync path counts from 1, its async path from 0),
    # a golden shows its app's output (deepeval's sync path: None), and a span's success is its rows' verdict
    # (deepeval: always False).
    assert table(result) == EXPECTED
    golden = result.test_results[0]
    assert (golden.input, golden.actual_output, golden.status) == ("short question", "short answer", "failed")
    assert [t.status for t in result.test_results] == [
        "failed",
        "failed",
        "passed",
        "passed",
        "passed",
        "passed",
    ]
    assert RETRIEVE_METRIC.score is None and GENERATE_METRIC.score is None  # measured on copies


def test_default_async_form_with_a_sync_app_call_gives_the_same_rows() -> None:
    # the docs' shortest form: `for golden in dataset.evals_iterator(): llm_app(golden.input)`. deepeval 4.3.1
    # measures the one metric object of each @observe concurrently there, so every span showed the last span's
    # score ("10 words in 'long question please'" for both generator rows); ours measures a copy per span.
    result = run(
        EvaluationDataset(goldens=GOLDENS).evals_iterator(display_config=QUIET), lambda g: rag_app(g.input)
    )
    assert table(result) == EXPECTED


# --- the async form: asyncio.create_task + dataset.evaluate ---------------------------------------------------------
@observe(type="retriever")
async def a_retrieve(q: str) -> list[str]:
    await asyncio.sleep(0.01)
    return [f"doc one about {q}", "doc two"]


@observe(type="llm", metrics=[WordCount(threshold=0.5)])
async def a_generate(q: str, docs: list[str]) -> str:
    await asyncio.sleep(0.02 if "short" in q else 0.0)
    out = "short answer" if "short" in q else "a long answer with many many words in it ok"
    update_current_span(test_case=LLMTestCase(input=q, actual_output=out, retrieval_context=docs))
    return out


@observe()
async def agent(q: str) -> str:
    docs = await a_retrieve(q)
    answer = await a_generate(q, docs)
    update_current_trace(input=q, output=answer + " (final)")
    return answer


def test_async_form_runs_the_tasks_and_measures_trace_and_span_metrics() -> None:
    dataset = EvaluationDataset(
        goldens=[Golden(input="short question"), Golden(input="long question please", name="second")]
    )
    seen: list[str] = []

    def body(golden: Golden) -> None:
        seen.append(get_current_golden().input)  # type: ignore[union-attr]
        task = asyncio.create_task(agent(golden.input))  # no running loop: the iterator's own loop takes it
        dataset.evaluate(task)

    result = run(dataset.evals_iterator(metrics=[WordCount(threshold=0.2)], display_config=QUIET), body)
    assert seen == ["short question", "long question please"]
    assert get_current_golden() is None
    # deepeval 4.3.1: the golden rows (trace-level metric on input / output from update_current_trace) are these;
    # its span rows were both "10 words in 'long question please'" (one metric object measured concurrently).
    assert table(result) == [
        ("test_case_0", 0, None, False, [("WordCount", 0.3, True, "3 words in 'short question'")]),
        ("a_generate", 0, "llm", False, [("WordCount", 0.2, False, "2 words in 'short question'")]),
        ("second", 1, None, True, [("WordCount", 1.0, True, "11 words in 'long question please'")]),
        ("a_generate", 1, "llm", True, [("WordCount", 1.0, True, "10 words in 'long question please'")]),
    ]
    assert result.test_results[0].actual_output == "short answer (final)"
    assert result.test_results[2].retrieval_context is None  # the golden's: the trace's, not set here
    assert result.test_results[3].retrieval_context == ["doc one about long question please", "doc two"]


def test_dataset_evaluate_takes_a_coroutine_and_refuses_other_things() -> None:
    dataset = EvaluationDataset(goldens=[Golden(input="long question please")])

    def body(golden: Golden) -> None:
        with pytest.raises(TypeError, match="expects an asyncio Task, Future, coroutine or awaitable"):
            dataset.evaluate("not a task")
        dataset.evaluate(agent(golden.input))

    result = run(dataset.evals_iterator(display_config=QUIET), body)
    assert [t.name for t in result.test_results] == ["test_case_0", "a_generate"]
    assert result.test_results[1].metrics_data[0].score == 1.0


def test_dataset_evaluate_outside_the_loop_says_where_it_belongs() -> None:
    coro = agent("q")
    with pytest.raises(DeepEvalError, match=re.escape("inside `for golden in dataset.evals_iterator():")):
        EvaluationDataset(goldens=[Golden(input="q")]).evaluate(coro)


def test_a_real_metric_in_a_component_with_a_custom_judge() -> None:
    class FieldJudge(DeepEvalBaseLLM):
        """Answers by the fields of the schema it is handed (whatever the schema's class is called)."""

        def __init__(self) -> None:
            self.model = "field-judge"

        def load_model(self) -> str:
            return self.model

        def generate(self, prompt: str, schema: type[BaseModel]) -> BaseModel:  # type: ignore[override]
            fields = set(schema.model_fields)
            if "statements" in fields:
                return schema(statements=["Refunds take 30 days.", "Our shoes are red."])
            if "verdicts" in fields:
                return schema(
                    verdicts=[{"verdict": "yes", "reason": "on topic"}, {"verdict": "no", "reason": "colour"}]
                )
            return schema(reason="half of the answer is about refunds")

        async def a_generate(self, prompt: str, schema: type[BaseModel]) -> BaseModel:  # type: ignore[override]
            return self.generate(prompt, schema)

        def get_model_name(self) -> str:
            return "field-judge"

    @observe(type="llm", metrics=[AnswerRelevancyMetric(model=FieldJudge(), threshold=0.7)])
    def answer(question: str) -> str:
        text = "Refunds take 30 days. Our shoes are red."
        update_current_span(test_case=LLMTestCase(input=question, actual_output=text))
        return text

    @observe()
    def app(question: str) -> str:
        return answer(question)

    for run_async in (True, False):
        dataset = EvaluationDataset(goldens=[Golden(input="How long do refunds take?")])
        iterator = dataset.evals_iterator(async_config=AsyncConfig(run_async=run_async), display_config=QUIET)
        result = run(iterator, lambda g: app(g.input))
        # deepeval 4.3.1, both forms: golden failed, span "answer" 0.5 failed with the judge's reason
        assert table(result) == [
            ("test_case_0", 0, None, False, []),
            (
                "answer",
                0,
                "llm",
                False,
                [("Answer Relevancy", 0.5, False, "half of the answer is about refunds")],
            ),
        ]
        assert result.test_results[1].metrics_data[0].evaluation_model == "field-judge"


# --- spans without update_current_span, spans that raised, missing parameters ---------------------------------------
@observe(type="tool", metrics=[WordCount(threshold=0.1)])
def tool(x: str, k: int = 2) -> str:
    return f"{x} result number {k}"


@observe(metrics=[WordCount(need_context=True)], name="ctx_component")
def needs_ctx(q: str) -> str:
    update_current_span(test_case=LLMTestCase(input=q, actual_output="a b c d e f"))
    return "x"


@observe(type="agent", metrics=[WordCount()])
def crashes(q: str) -> str:
    raise ValueError("bad tool input")


@observe()
def careful_app(q: str) -> str:
    tool(q)
    needs_ctx(q)
    try:
        crashes(q)
    except ValueError:
        pass
    return "done"


@pytest.mark.parametrize("run_async", [False, True])
def test_span_arguments_a_span_that_raised_and_a_metric_left_out(run_async: bool) -> None:
    dataset = EvaluationDataset(goldens=[Golden(input="q1")])
    iterator = dataset.evals_iterator(
        async_config=AsyncConfig(run_async=run_async),
        error_config=ErrorConfig(skip_on_missing_params=True, ignore_errors=True),
        display_config=QUIET,
    )
    result = run(iterator, lambda g: careful_app(g.input))
    rows = {t.name: t for t in result.test_results}
    # deepeval 4.3.1 (both forms): a span without update_current_span is judged on its arguments (with their
    # defaults) and its return value, as text
    tool_row = rows["tool"].metrics_data[0]
    assert (tool_row.score, tool_row.reason) == (0.4, "4 words in \"{'x': 'q1', 'k': 2}\"")
    assert rows["tool"].input == "{'x': 'q1', 'k': 2}" and rows["tool"].actual_output == "q1 result number 2"
    # deepeval 4.3.1: the span that raised has its metric's row: success False, no score; ours says why
    crash = rows["crashes"].metrics_data[0]
    assert (crash.score, crash.success, crash.error) == (None, False, None)
    assert crash.reason == "not measured: span 'crashes' raised: bad tool input"
    # deepeval 4.3.1 leaves the skipped metric out, and with it the span's result; ours keeps the span, its
    # metric in skipped_metrics
    ctx = rows["ctx_component"]
    assert ctx.metrics_data == [] and ctx.span_type == "base"
    assert [m.reason for m in ctx.skipped_metrics or []] == ["skipped: WordCount needs retrieval_context"]
    # order: the golden, then base, agent, ..., tool spans (deepeval's order)
    assert [t.name for t in result.test_results] == ["test_case_0", "ctx_component", "crashes", "tool"]
    # ours: the golden fails with its failed span (deepeval 4.3.1 passed it: an errored span does not count there)
    assert result.test_results[0].status == "failed"


def test_a_span_with_metrics_and_no_test_case_gets_error_rows() -> None:
    @observe(metrics=[WordCount()])
    def inner_component() -> (
        None
    ):  # no arguments and no update_current_span: nothing to build a test case from
        return None

    @observe()
    def app(q: str) -> None:
        inner_component()

    iterator = EvaluationDataset(goldens=[Golden(input="q")]).evals_iterator(
        error_config=ErrorConfig(ignore_errors=True), display_config=QUIET
    )
    result = run(iterator, lambda g: app(g.input))
    (row,) = result.test_results[1].metrics_data
    # deepeval 4.3.1 marks the span errored and shows no row; ours keeps the row with the reason
    assert row.error == (
        "DeepEvalError: span 'inner_component' has metrics but no test case: call "
        "update_current_span(test_case=LLMTestCase(...)) inside it"
    )
    assert result.test_results[0].status == "error"


def test_trace_metrics_for_a_golden_without_a_trace_get_error_rows() -> None:
    iterator = EvaluationDataset(goldens=[Golden(input="q")]).evals_iterator(
        metrics=[WordCount()], error_config=ErrorConfig(ignore_errors=True), display_config=QUIET
    )
    result = run(iterator, lambda g: None)  # the app was never called
    (row,) = result.test_results[0].metrics_data
    assert row.error is not None and row.error.startswith(
        "DeepEvalError: no trace was recorded for this golden"
    )


# --- errors, guards -------------------------------------------------------------------------------------------------
class Boom(WordCount):
    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        raise RuntimeError("judge down")

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Boom"


@observe(metrics=[Boom()])
def boom_app(q: str) -> str:
    update_current_span(test_case=LLMTestCase(input=q, actual_output="a"))
    return "a"


@pytest.mark.parametrize("run_async", [False, True])
def test_a_metric_error_raises_its_class_after_every_golden_ran(run_async: bool) -> None:
    # deepeval 4.3.1 raises the RuntimeError itself (sync form: at the next golden; async form: after the loop);
    # ours, after the loop: an EvaluationError that is also a RuntimeError, holding every row
    bodies: list[str] = []
    dataset = EvaluationDataset(goldens=[Golden(input="q1"), Golden(input="q2")])
    with pytest.raises(RuntimeError, match="judge down") as info:
        for golden in dataset.evals_iterator(
            async_config=AsyncConfig(run_async=run_async), display_config=QUIET
        ):
            bodies.append(golden.input)
            boom_app(golden.input)
    assert bodies == ["q1", "q2"]
    assert isinstance(info.value, EvaluationError)
    assert [t.name for t in info.value.result.test_results] == [
        "test_case_0",
        "boom_app",
        "test_case_1",
        "boom_app",
    ]
    assert isinstance(info.value.__cause__, RuntimeError)


@observe(type="agent", name="bare_agent")
def bare_agent(question: str) -> str:
    return f"answer to {question!r}"


@pytest.mark.parametrize("run_async", [False, True])
def test_no_metrics_anywhere_raises_no_metrics_error(run_async: bool) -> None:
    # deepeval 4.3.1 raises NoMetricsError after the loop (its own test_dataset_iterator.py checks the same)
    dataset = EvaluationDataset(goldens=[Golden(input="q1"), Golden(input="q2")])
    with pytest.raises(NoMetricsError, match="no metrics were declared"):
        for golden in dataset.evals_iterator(
            async_config=AsyncConfig(run_async=run_async), display_config=QUIET
        ):
            bare_agent(golden.input)


def test_a_metric_collection_alone_is_not_a_metric_source() -> None:
    @observe(type="agent", metric_collection="some_collection")
    def with_collection(q: str) -> str:
        return q

    with pytest.raises(NoMetricsError):
        for golden in EvaluationDataset(goldens=[Golden(input="q1")]).evals_iterator(display_config=QUIET):
            with_collection(golden.input)


def test_an_empty_dataset_raises_when_the_loop_starts() -> None:
    iterator = EvaluationDataset().evals_iterator()  # as deepeval: nothing happens until the loop starts
    with pytest.raises(ValueError, match="Unable to evaluate dataset with no goldens"):
        next(iterator)


def test_a_metric_that_is_not_a_base_metric_is_refused() -> None:
    with pytest.raises(TypeError, match=r"evals_iterator\(metrics=...\)\[0\] is a str"):
        next(EvaluationDataset(goldens=[Golden(input="q")]).evals_iterator(metrics=["Answer Relevancy"]))


def test_leaving_the_loop_early_measures_nothing_and_restores_create_task() -> None:
    from deepeval.evaluate import session

    before = session.latest()
    original = asyncio.create_task
    for golden in EvaluationDataset(goldens=GOLDENS).evals_iterator(display_config=QUIET):
        assert asyncio.create_task is not original
        rag_app(golden.input)
        break
    assert asyncio.create_task is original
    assert session.latest() is before


# --- where the results go -------------------------------------------------------------------------------------------
def test_results_go_to_the_json_and_html_report_one_row_per_span_and_metric(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    config = DisplayConfig(show_indicator=False, print_results=False, results_folder=str(folder))
    result = run(
        EvaluationDataset(goldens=GOLDENS).evals_iterator(identifier="rag-components", display_config=config),
        lambda g: rag_app(g.input),
    )
    (json_path,) = folder.glob("*-*.json")
    (html_path,) = folder.glob("*.html")
    data = json.loads(json_path.read_text())
    assert data["identifier"] == "rag-components" and data["extras"]["component_level"] is True
    assert [(t["name"], t["span_type"], t["status"]) for t in data["test_results"]] == [
        ("test_case_0", None, "failed"),
        ("generator", "llm", "failed"),
        ("retrieve", "retriever", "passed"),
        ("test_case_1", None, "passed"),
        ("generator", "llm", "passed"),
        ("retrieve", "retriever", "passed"),
    ]
    assert data["totals"]["metric_rows"] == 4 and data["totals"]["test_cases_failed"] == 2
    assert (
        EvaluationResult.from_dict(data).test_results[0].status == "failed"
    )  # the roll-up survives a reload
    html = html_path.read_text()
    assert html.count('<details class="row') == 4
    assert html.count('<span class="case">generator <small class="span">llm span</small>') == 2
    assert html.count('<span class="case">retrieve <small class="span">retriever span</small>') == 2
    latest = global_test_run_manager.get_latest_test_run_data()
    assert latest is not None and [t.name for t in latest.test_cases][:3] == [
        "test_case_0",
        "generator",
        "retrieve",
    ]
    assert result.run_id == data["run_id"]


def test_file_output_dir_writes_one_file_per_golden_and_span(tmp_path: Path) -> None:
    config = DisplayConfig(show_indicator=False, print_results=False, file_output_dir=str(tmp_path / "cases"))
    run(EvaluationDataset(goldens=GOLDENS).evals_iterator(display_config=config), lambda g: rag_app(g.input))
    assert sorted(p.name for p in (tmp_path / "cases").iterdir()) == [
        "test_case_0.json",
        "test_case_0_span_1.json",
        "test_case_0_span_2.json",
        "test_case_1.json",
        "test_case_1_span_1.json",
        "test_case_1_span_2.json",
    ]


def test_traces_are_kept_locally_and_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network use: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    run(EvaluationDataset(goldens=GOLDENS).evals_iterator(display_config=QUIET), lambda g: rag_app(g.input))
    traces = trace_manager.traces
    assert [t.root_spans[0].name for t in traces] == ["rag_app", "rag_app"]
    assert [s.name for s in traces[0].root_spans[0].children] == ["retrieve", "generator"]


def test_the_sync_form_works_inside_a_running_event_loop() -> None:
    async def main() -> EvaluationResult:
        dataset = EvaluationDataset(goldens=GOLDENS)
        return run(
            dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=QUIET),
            lambda g: rag_app(g.input),
        )

    assert table(asyncio.run(main())) == EXPECTED


def test_inside_a_running_loop_the_app_can_be_awaited_and_a_foreign_task_is_refused_clearly() -> None:
    async def main() -> EvaluationResult:
        dataset = EvaluationDataset(goldens=[Golden(input="long question please")])
        with pytest.raises(DeepEvalError, match="belongs to an event loop that is already running"):
            for golden in dataset.evals_iterator(display_config=QUIET):
                dataset.evaluate(asyncio.create_task(agent(golden.input)))  # a task of *this* running loop
        iterator = dataset.evals_iterator(display_config=QUIET)
        while True:
            try:
                golden = next(iterator)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            await agent(
                golden.input
            )  # awaited in the loop body: its trace is complete before the next golden

    result = asyncio.run(main())
    assert [(t.name, t.success) for t in result.test_results] == [("test_case_0", True), ("a_generate", True)]


class TurnCount(BaseConversationalMetric):
    """Deterministic conversational metric: score = turns / 10."""

    def __init__(self) -> None:
        self.threshold = 0.1

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        self.score = len(test_case.turns) / 10
        self.reason = f"{len(test_case.turns)} turns"
        self.success = True
        return self.score

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        return self.measure(test_case)

    def is_successful(self) -> bool:
        return True

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "TurnCount"


def test_a_conversational_test_case_on_a_span_is_measured_as_a_conversation() -> None:
    """update_current_span(test_case=ConversationalTestCase(...)) was rebuilt as an LLMTestCase of the span's
    fields: a single-turn metric scored input '' and output 'hi' with no error (outside attack 5, M9). Now the turns
    are the material: a conversational metric measures them, a single-turn one is skipped, saying why."""
    from deepeval.test_case import ConversationalTestCase, Turn

    @observe(type="llm", metrics=[TurnCount(), WordCount()])
    def chat(q: str) -> str:
        turns = [Turn(role="user", content=q), Turn(role="assistant", content="hi")]
        update_current_span(test_case=ConversationalTestCase(turns=turns))
        return "hi"

    dataset = EvaluationDataset(goldens=[Golden(input="Where is my parcel?")])
    result = run(dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=QUIET),
                 lambda g: chat(g.input))  # fmt: skip
    rows = {m.name: m for t in result.test_results for m in t.metrics_data}
    assert rows["TurnCount"].score == 0.2 and rows["TurnCount"].reason == "2 turns"
    assert rows["WordCount"].score is None
    assert (
        rows["WordCount"].reason
        == "skipped: WordCount is a single-turn metric and this test case is conversational"
    )


def test_an_observed_generator_never_iterated_is_named_as_why_nothing_was_measured() -> None:
    """A span on a generator function runs only while the generator is iterated: one created and dropped ended the
    loop with "no metrics were declared ... on an @observe(metrics=...) span" although they were declared (outside
    attack 5, L11); the error now says a span must have run and why a generator's may not have."""

    @observe(type="llm", metrics=[WordCount()])
    def stream(q: str) -> Iterator[str]:
        yield q

    dataset = EvaluationDataset(goldens=[Golden(input="hello")])
    with pytest.raises(NoMetricsError, match=r"span that ran.*runs only while the generator is iterated"):
        run(dataset.evals_iterator(async_config=AsyncConfig(run_async=False), display_config=QUIET),
            lambda g: stream(g.input))  # fmt: skip


def test_a_cancelled_task_stops_the_loop_as_a_signal_does_not_as_an_app_exception(tmp_path: Path) -> None:
    """Ctrl-C in Jupyter cancels the cell's task: the CancelledError leaving the loop body was taken for an app
    exception, and every finished golden was measured after the Ctrl-C (outside attack 7). Now nothing more is
    measured and the report says the run was cancelled."""
    measured: list[str] = []

    class Counting(WordCount):
        def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
            measured.append(test_case.input)
            return super().measure(test_case)

    @observe(type="llm", metrics=[Counting()])
    async def agent(q: str) -> str:
        await asyncio.sleep(0.01)
        update_current_span(test_case=LLMTestCase(input=q, actual_output="an answer"))
        return "an answer"

    goldens = [Golden(input=f"q{i}") for i in range(8)]
    display = DisplayConfig(print_results=False, show_indicator=False, results_folder=str(tmp_path))

    async def cell() -> None:
        dataset = EvaluationDataset(goldens=goldens)
        for golden in dataset.evals_iterator(
            async_config=AsyncConfig(run_async=False), display_config=display
        ):
            await agent(golden.input)

    async def kernel() -> None:
        task = asyncio.ensure_future(cell())
        await asyncio.sleep(0.045)  # a few goldens in
        task.cancel()  # what ipykernel does on Ctrl-C for a cell with top-level await
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(kernel())
    assert measured == []
    [export] = [p for p in tmp_path.glob("run-*.json")]
    note = json.loads(export.read_text(encoding="utf-8"))["extras"]["interrupted"]
    assert note.startswith("task cancelled: the app finished on ") and note.endswith(
        " of 8 goldens, none measured"
    )
