"""A result row's error carries its kind (``MetricData.error_kind``, an ``ErrorKind`` value from the one mapping
``deepeval.errors.error_kind``): a judge's timeout and auth failure against a real loopback server, a missing
test-case field, a configuration error, the measure's deadline and a user metric's own exception. The kind is in
``to_dict`` and the JSON export, None without an error, and rows written before it existed read back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from deepeval import evaluate
from deepeval.errors import ErrorKind, MissingTestCaseParamsError, error_kind
from deepeval.evaluate import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.evaluate.results import EvaluationResult, MetricData
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric, GEval
from deepeval.metrics.base_metric import BaseMetric
from deepeval.models import OpenAIModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.test_case import LLMTestCase, SingleTurnParams
from deepeval.testing.servers import OpenAIChatServer

QUIET = DisplayConfig(show_indicator=False, print_results=False)
KEEP_ERRORS = ErrorConfig(ignore_errors=True)
CASE = LLMTestCase(input="What is the capital of France?", actual_output="Paris is the capital.")
KEY = "sk-row-kinds-test-0123456789"


@pytest.fixture(autouse=True)
def _no_judges_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in (
        "OPENAI_API_KEY",
        "TYPESAFE_API_KEY",
        "USE_LOCAL_MODEL",
        "GGUF_MODEL_PATH",
        "LOCAL_MODEL_BASE_URL",
    ):
        monkeypatch.delenv(key, raising=False)


class RaisingMetric(BaseMetric):
    """A user's metric (defined outside the package) whose measure raises its own exception."""

    def __init__(self, exc: BaseException) -> None:
        self.threshold = 0.5
        self.exc = exc

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        raise self.exc

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        raise self.exc

    def is_successful(self) -> bool:
        return False

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "Raising"


class SlowMetric(RaisingMetric):
    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        await asyncio.sleep(5)
        return 1.0


def _row(metric: BaseMetric, case: LLMTestCase = CASE, **kwargs: Any) -> MetricData:
    result = evaluate([case], [metric], display_config=QUIET, error_config=KEEP_ERRORS, **kwargs)
    (row,) = result.test_results[0].metrics_data
    return row


def _judge(server: OpenAIChatServer, *, api_key: str = KEY, timeout: float = 2.0) -> OpenAIModel:
    policy = RetryPolicy(max_retries=0, timeout=timeout, base_delay=0.001, max_delay=0.002)
    return OpenAIModel(api_key=api_key, base_url=server.base_url, retry_policy=policy)


def test_a_judge_timeout_is_kind_timeout() -> None:
    with OpenAIChatServer(latency=1.5) as server:
        row = _row(AnswerRelevancyMetric(model=_judge(server, timeout=0.2), eval_mode="llm"))
    assert row.error is not None and row.error_kind == ErrorKind.timeout == "timeout"
    assert row.success is False and row.score is None


def test_a_rejected_key_is_kind_auth_and_the_key_is_nowhere_in_the_row() -> None:
    with OpenAIChatServer(api_key="sk-the-server-wants-another-key") as server:
        row = _row(AnswerRelevancyMetric(model=_judge(server), eval_mode="llm"))
        assert server.counters.requests == 1
    assert row.error_kind == "auth"
    assert KEY not in json.dumps(row.to_dict())


def test_a_judge_reply_over_the_size_limit_fails_its_row_not_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A judge's oversized reply body (outside attack 7: 200 MB, read whole) fails the row that asked, naming the
    limit, kind `server`; the other test case's row is measured."""
    from deepeval.testing._http import Fault

    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_REPLY_BYTES", "65536")
    reply = '{"reason": "It answers.", "score": 8}'
    with OpenAIChatServer(lambda request: reply, faults=[Fault.oversize(1 << 20, chunked=True)]) as server:
        metric = GEval(
            name="Answers",
            evaluation_steps=["Check that the output answers the input."],
            evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
            model=_judge(server),
        )
        result = evaluate(
            [CASE, LLMTestCase(input="Who wrote Hamlet?", actual_output="Shakespeare.")],
            [metric],
            display_config=QUIET,
            error_config=KEEP_ERRORS,
            async_config=AsyncConfig(max_concurrent=1),
        )
    first, second = (t.metrics_data[0] for t in result.test_results)
    assert first.error_kind == "server" and first.score is None
    assert first.error is not None
    assert "over the limit of 65,536 bytes (DEEPEVAL_JUDGE_MAX_REPLY_BYTES)" in first.error
    assert KEY not in first.error
    assert second.error is None and second.score == pytest.approx(0.8)


def test_a_missing_test_case_field_is_kind_missing_params() -> None:
    row = _row(ContextualRelevancyMetric(eval_mode="system_one"))  # needs retrieval_context
    assert row.error is not None and row.error.startswith("MissingTestCaseParamsError")
    assert row.error_kind == "missing_params"


def test_llm_mode_without_an_llm_is_kind_configuration() -> None:
    row = _row(AnswerRelevancyMetric(eval_mode="llm"))
    assert row.error is not None and row.error.startswith("ConfigurationError")
    assert row.error_kind == "configuration"


def test_a_user_metrics_own_exception_is_kind_user_code() -> None:
    row = _row(RaisingMetric(ZeroDivisionError("my metric divided by zero")))
    assert (row.error, row.error_kind) == ("ZeroDivisionError: my metric divided by zero", "user_code")
    # a user metric that raises one of ours keeps that kind
    row = _row(RaisingMetric(MissingTestCaseParamsError("needs context")))
    assert row.error_kind == "missing_params"


def test_a_measure_past_its_deadline_is_kind_deadline() -> None:
    row = _row(SlowMetric(RuntimeError("never")), async_config=AsyncConfig(measure_timeout=0.2))
    assert row.error == "TimeoutError: measure did not finish within 0.2 s"
    assert row.error_kind == "deadline"


def test_the_mapping_is_one_function_over_exceptions_and_sources() -> None:
    ours = AnswerRelevancyMetric()
    users = RaisingMetric(ValueError("x"))
    assert error_kind(ValueError("x"), raised_by=ours) is ErrorKind.error
    assert error_kind(ValueError("x"), raised_by=users) is ErrorKind.user_code
    assert error_kind(None, raised_by=users) is ErrorKind.user_code  # an error set without raising
    assert error_kind(TimeoutError(), raised_by=users) is ErrorKind.deadline


def test_the_kind_is_exported_and_none_without_an_error() -> None:
    result = evaluate(
        [CASE],
        [RaisingMetric(KeyError("k")), AnswerRelevancyMetric(eval_mode="system_one")],
        display_config=QUIET,
        error_config=KEEP_ERRORS,
    )
    rows = result.test_results[0].metrics_data
    assert [r.to_dict()["error_kind"] for r in rows] == ["user_code", None]
    exported = json.loads(result.to_json())
    assert [m["error_kind"] for m in exported["test_results"][0]["metrics_data"]] == ["user_code", None]
    again = EvaluationResult.from_dict(exported)
    assert [m.error_kind for m in again.test_results[0].metrics_data] == ["user_code", None]


def test_rows_written_before_the_kind_existed_read_back() -> None:
    old = {"name": "Answer Relevancy", "score": None, "success": False, "error": "JudgeError: boom"}
    row = MetricData.from_dict(old)
    assert (row.error, row.error_kind, row.status) == ("JudgeError: boom", None, "error")
    with pytest.raises(ValueError, match="error_kind 7 is not a string"):
        MetricData.from_dict({**old, "error_kind": 7})


def test_the_console_does_not_show_the_kind(capsys: pytest.CaptureFixture[str]) -> None:
    evaluate(
        [CASE],
        [RaisingMetric(ZeroDivisionError("console check"))],
        display_config=DisplayConfig(show_indicator=False, print_results=True),
        error_config=KEEP_ERRORS,
    )
    out = capsys.readouterr().out
    assert "console check" in out and "user_code" not in out and "error_kind" not in out
