"""One measure is one value (``deepeval.metrics.flow.run_measure`` -> ``MeasureResult``): the score, reason, verdicts
and usage of a measure that worked; the error with its kind (``deepeval.errors.error_kind``), type and redacted
message of one that did not, for our metrics and a user's alike; cancellation and Ctrl-C are not captured. Our
metrics' ``measure()`` applies the value: same attributes, and the original exception re-raised with ``score``,
``success`` and ``error`` left None (as deepeval 4.3.1)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from deepeval.errors import ErrorKind, JudgeError, MissingTestCaseParamsError
from deepeval.metrics import AnswerRelevancyMetric, ContextualRelevancyMetric
from deepeval.metrics.base_metric import BaseMetric
from deepeval.metrics.flow import apply, run_measure
from deepeval.metrics.result import MeasureError, MeasureResult, Usage
from deepeval.models import OpenAIModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.test_case import LLMTestCase
from deepeval.testing.scripted import ScriptedLLM
from deepeval.testing.servers import OpenAIChatServer

from .helpers import router

OUT = "We offer a 30-day full refund. Our shoes are red. Returns may need a receipt."
STATEMENTS = ["We offer a 30-day full refund.", "Our shoes are red.", "Returns may need a receipt."]
CASE = LLMTestCase(input="What if these shoes don't fit?", actual_output=OUT)
KEY = "sk-measure-result-test-0123456789"


def _scripted(**kw: Any) -> ScriptedLLM:
    def respond(prompt: str, schema: object) -> object:
        return (
            router(statements=STATEMENTS, verdicts=["yes", "no", "yes"], reason="two of three")(
                prompt, schema
            ),
            0.001,
        )

    return ScriptedLLM(respond, tokens=(100, 20), **kw)


def _judge(server: OpenAIChatServer, *, api_key: str = KEY, timeout: float = 2.0) -> OpenAIModel:
    policy = RetryPolicy(max_retries=0, timeout=timeout, base_delay=0.001, max_delay=0.002)
    return OpenAIModel(api_key=api_key, base_url=server.base_url, retry_policy=policy)


class UserMetric(BaseMetric):
    """A user's metric (outside the package): ``a_measure`` raises ``exc`` when given, else sets ``score``."""

    def __init__(self, exc: BaseException | None = None, score: float = 0.8, delay: float = 0.0) -> None:
        self.threshold = 0.5
        self.exc = exc
        self.value = score
        self.delay = delay

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.exc is not None:
            raise self.exc
        self.score = self.value
        self.reason = "mine"
        return self.value

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return "User"


def _measure(metric: BaseMetric, case: LLMTestCase = CASE, **kw: Any) -> MeasureResult:
    return asyncio.run(run_measure(metric, case, **kw))


# -- success --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("run_async", [True, False])
def test_a_measure_that_worked_is_its_score_reason_verdicts_and_usage(run_async: bool) -> None:
    llm = _scripted()
    result = _measure(AnswerRelevancyMetric(model=llm, eval_mode="llm"), run_async=run_async)
    assert result.error is None and result.skipped is None
    assert result.score == pytest.approx(2 / 3) and result.success is True
    assert result.reason == "two of three"
    assert result.verdicts is not None and [v["verdict"] for v in result.verdicts] == ["yes", "no", "yes"]
    assert result.evaluation_model == "scripted-llm"
    assert result.usage == Usage(
        input_tokens=300,
        output_tokens=60,
        cost=pytest.approx(0.003),
        llm_calls=3,
        system_one_requests=0,
        retries=0,
    )
    assert llm.call_count == 3


def test_measure_sets_the_attributes_of_the_value() -> None:
    metric = AnswerRelevancyMetric(model=_scripted(), eval_mode="llm")
    result = _measure(AnswerRelevancyMetric(model=_scripted(), eval_mode="llm"))
    assert metric.measure(CASE) == result.score
    assert (metric.score, metric.reason, metric.success, metric.error) == (
        result.score,
        result.reason,
        result.success,
        None,
    )
    assert (metric.evaluation_cost, metric.input_tokens, metric.output_tokens) == (
        result.usage.cost,
        result.usage.input_tokens,
        result.usage.output_tokens,
    )
    assert metric.verdicts == list(result.verdicts or ())
    assert metric.score_breakdown == result.breakdown and metric.verbose_logs == result.verbose_logs


def test_a_user_metric_is_read_as_it_left_itself() -> None:
    result = _measure(UserMetric(score=0.3))
    assert (result.score, result.reason, result.success, result.error) == (0.3, "mine", False, None)
    assert result.usage == Usage()


# -- errors -----------------------------------------------------------------------------------------------------------
def test_a_judge_error_keeps_its_kind_and_the_message_is_redacted() -> None:
    with OpenAIChatServer(api_key="sk-the-server-wants-another-key") as server:
        result = _measure(AnswerRelevancyMetric(model=_judge(server), eval_mode="llm"))
        assert server.counters.requests == 1
    err = result.error
    assert err is not None and err.kind is ErrorKind.auth
    assert isinstance(err.exception, JudgeError) and err.type == type(err.exception).__name__
    assert err.retryable is False and KEY not in err.message and KEY not in err.display()
    assert err.display() == f"{err.type}: {err.message}"
    assert (result.score, result.success) == (None, False)  # the row's verdict; measure() leaves success None


def test_a_judge_timeout_is_kind_timeout_and_retryable() -> None:
    with OpenAIChatServer(latency=1.5) as server:
        result = _measure(AnswerRelevancyMetric(model=_judge(server, timeout=0.2), eval_mode="llm"))
    assert result.error is not None and result.error.kind is ErrorKind.timeout
    assert result.error.retryable is True


def test_a_missing_test_case_field_is_kind_missing_params_or_a_skip() -> None:
    result = _measure(ContextualRelevancyMetric(eval_mode="system_one"))  # needs retrieval_context
    err = result.error
    assert err is not None and err.kind is ErrorKind.missing_params
    assert err.type == "MissingTestCaseParamsError" and isinstance(err.exception, MissingTestCaseParamsError)
    assert "retrieval_context" in err.message and err.display().startswith("MissingTestCaseParamsError: ")
    skipped = _measure(ContextualRelevancyMetric(eval_mode="system_one"), skip_on_missing_params=True)
    assert skipped.error is None and skipped.success is None
    assert skipped.skipped == f"skipped: {err.message}"


def test_a_user_metric_that_raises_is_kind_user_code() -> None:
    result = _measure(UserMetric(ZeroDivisionError("my metric divided by zero")))
    assert result.error == MeasureError(ErrorKind.user_code, "ZeroDivisionError", "my metric divided by zero")
    assert result.error.display() == "ZeroDivisionError: my metric divided by zero"
    assert isinstance(result.error.exception, ZeroDivisionError)
    # a user metric that raises one of ours keeps that kind
    assert _measure(UserMetric(MissingTestCaseParamsError("x"))).error.kind is ErrorKind.missing_params  # type: ignore[union-attr]


def test_an_error_the_user_metric_reported_without_raising_has_no_type() -> None:
    metric = UserMetric()
    metric.error = "judge returned garbage"
    result = _measure(metric)
    assert result.error == MeasureError(ErrorKind.user_code, "", "judge returned garbage")
    assert result.error.display() == "judge returned garbage" and result.error.exception is None
    assert result.score == 0.8 and result.success is False  # the score it set is kept, as on the row


def test_a_timeout_error_is_kind_deadline() -> None:
    late = _measure(UserMetric(delay=5), timeout=0.2)
    assert late.error is not None and late.error.kind is ErrorKind.deadline
    assert late.error.display() == "TimeoutError: measure did not finish within 0.2 s"
    # a TimeoutError the measure raised itself: its own message outside evaluate()
    own = _measure(UserMetric(TimeoutError("backend too slow")))
    assert own.error == MeasureError(ErrorKind.deadline, "TimeoutError", "backend too slow")
    # ... and the deadline's words inside it, as evaluate()'s rows always said
    ran = _measure(UserMetric(TimeoutError("backend too slow")), evaluating=True)
    assert ran.error is not None and ran.error.message == "measure did not finish within None s"


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), asyncio.CancelledError(), SystemExit(3)])
def test_interrupts_and_cancellation_are_not_captured(exc: BaseException) -> None:
    async def main() -> None:
        await run_measure(UserMetric(exc), CASE)

    with pytest.raises(type(exc)):
        asyncio.run(main())


def test_a_cancelled_measure_is_cancelled_not_a_value() -> None:
    async def main() -> None:
        task = asyncio.ensure_future(run_measure(UserMetric(delay=5), CASE))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


# -- measure() raises the original exception and leaves the attributes as deepeval 4.3.1 ----------------------------
class Down(Exception):
    pass


def _down(exc: BaseException) -> ScriptedLLM:
    def respond(prompt: str, schema: object) -> object:
        raise exc

    return ScriptedLLM(respond)


@pytest.mark.parametrize("async_mode", [True, False])
def test_measure_reraises_the_original_exception_and_clears_score_success_error(async_mode: bool) -> None:
    boom = Down("judge is down")
    metric = AnswerRelevancyMetric(model=_down(boom), eval_mode="llm", async_mode=async_mode)
    with pytest.raises(Down) as info:
        metric.measure(CASE)
    assert info.value is boom
    assert (metric.score, metric.success, metric.error) == (None, None, None)
    with pytest.raises(Down):
        asyncio.run(metric.a_measure(CASE))
    assert (metric.score, metric.success, metric.error) == (None, None, None)
    # the same failure as a value: kind "error" (our metric, an exception that is no judge error of ours)
    value = _measure(AnswerRelevancyMetric(model=_down(Down("x")), eval_mode="llm"))
    assert value.error is not None and (value.error.kind, value.error.type) == (ErrorKind.error, "Down")


def test_measure_after_a_missing_field_raises_it_with_the_attributes_cleared() -> None:
    metric = ContextualRelevancyMetric(eval_mode="system_one")
    with pytest.raises(MissingTestCaseParamsError, match="retrieval_context"):
        metric.measure(CASE)
    assert (metric.score, metric.success, metric.error, metric.reason) == (None, None, None, None)


def test_apply_raises_the_values_exception() -> None:
    metric = AnswerRelevancyMetric(model=_scripted(), eval_mode="llm")
    err = ValueError("from the value")
    with pytest.raises(ValueError, match="from the value"):
        apply(
            metric,
            MeasureResult(
                score=0.5,
                success=True,
                error=MeasureError(ErrorKind.error, "ValueError", "from the value", exception=err),
            ),
        )
    assert (metric.score, metric.success, metric.error) == (None, None, None)
    assert apply(metric, MeasureResult(score=0.5, success=True)) == 0.5 and metric.success is True


def test_a_user_subclass_that_overrides_a_measure_is_measured_through_it() -> None:
    seen: list[str] = []

    class Mine(AnswerRelevancyMetric):
        async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
            seen.append("mine")
            return await super().a_measure(test_case)

    result = _measure(Mine(model=_scripted(), eval_mode="llm"))
    assert seen == ["mine"] and result.score == pytest.approx(2 / 3)


def test_measure_of_a_subclass_with_its_own_a_measure_runs_it() -> None:
    seen: list[str] = []

    class Mine(AnswerRelevancyMetric):
        async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
            seen.append("mine")
            return await super().a_measure(test_case)

    assert Mine(model=_scripted(), eval_mode="llm").measure(CASE) == pytest.approx(2 / 3)
    assert seen == ["mine"]
    assert Mine(model=_scripted(), eval_mode="llm", async_mode=False).measure(CASE) == pytest.approx(2 / 3)
    assert seen == ["mine"]  # async_mode=False: the sequential engine, as before
