"""TypeSafeModel against the real loopback /v1/systemone server."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from deepeval.errors import RequestTooLargeError, SystemOneError, UnsupportedQuestionError
from deepeval.models import TypeSafeModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import ChoiceQuestion, NoulQuestion, ScoreQuestion
from deepeval.models.system_one.kinds import STATEMENT_RELEVANT
from deepeval.models.system_one.typesafe import check_budget, estimate_tokens
from deepeval.models.usage import track_usage
from deepeval.testing.servers import (
    Fault,
    SystemOneReply,
    SystemOneServer,
    wire_choice,
    wire_noul,
    wire_score,
)

KEY = "ts-live-SECRET-abcdef123456"

QUESTIONS = {
    "relevant": NoulQuestion(
        instructions="Is the statement relevant to the input?",
        true="it helps answer the input",
        false="it does not",
        kind=STATEMENT_RELEVANT,
        data={"input": "capital of France?", "statement": "Paris is the capital."},
    ),
    "tone": ChoiceQuestion(instructions="Which tone?", options={"formal": None, "casual": "chatty"}),
    "grade": ScoreQuestion(instructions="How complete?", levels=["none", "some", "most", "all"]),
}


def full_responder(state, questions):
    return {
        "relevant": wire_noul(0.9),
        "tone": wire_choice({"formal": 0.2, "casual": 0.8}),
        "grade": wire_score([0.0, 0.1, 0.3, 0.6], legend=questions["grade"]["criteria"]),
    }


def _model(srv: SystemOneServer, policy: RetryPolicy, **kw) -> TypeSafeModel:
    return TypeSafeModel(api_key=KEY, base_url=srv.base_url, retry_policy=policy, **kw)


def test_noul_choice_score_parsed_and_wire_format_exact(fast_policy) -> None:
    with SystemOneServer(full_responder, api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        assert model.get_model_name() == "jev-latest"
        with track_usage() as usage:
            answers, cost = model.decide({"input": "capital of France?"}, QUESTIONS)
        assert answers.nouls["relevant"].probability == 0.9
        assert answers.nouls["relevant"].confidence == pytest.approx(0.8)
        tone = answers.choices["tone"]
        assert tone.choice == "casual" and tone.probabilities == {"formal": 0.2, "casual": 0.8}
        assert tone.confidence == pytest.approx(0.6)
        grade = answers.scores["grade"]
        assert grade.score == pytest.approx(0.1 + 0.6 + 1.8)
        assert grade.probabilities == {0: 0.0, 1: 0.1, 2: 0.3, 3: 0.6} and grade.top_level == 3
        assert grade.legend == ["none", "some", "most", "all"]
        assert answers.model == "jev-2026-10-01"
        assert model.get_model_name() == "jev-latest (jev-2026-10-01)"
        # exact wire body: no kind/data, criteria per type
        body = srv.counters.bodies[0]
        assert body == {
            "model": "jev-latest",
            "state": {"input": "capital of France?"},
            "questions": {
                "relevant": {
                    "type": "noul",
                    "instructions": "Is the statement relevant to the input?",
                    "criteria": {"true": "it helps answer the input", "false": "it does not"},
                },
                "tone": {
                    "type": "choice",
                    "instructions": "Which tone?",
                    "criteria": {"formal": None, "casual": "chatty"},
                },
                "grade": {
                    "type": "score",
                    "instructions": "How complete?",
                    "criteria": ["none", "some", "most", "all"],
                },
            },
        }
        assert srv.counters.authorization == [f"Bearer {KEY}"]
        # usage; no cost: a server other than TypeSafe's has no known price (test_usage_override_and_cost_settings)
        assert answers.input_tokens == srv.counters.input_tokens and answers.output_tokens == 3
        assert usage.input_tokens == srv.counters.input_tokens and usage.system_one_requests == 1
        assert cost is None and answers.request_ids == srv.request_ids == ["req-loopback-1"]


def test_missing_and_malformed_answers_are_left_out(fast_policy) -> None:
    def responder(state, questions):
        return {
            "relevant": wire_noul(1.7),
            "tone": wire_choice({"formal": 0.5, "other": 0.5}) | {"choice": "other"},
        }

    with SystemOneServer(responder) as srv:
        answers, _ = _model(srv, fast_policy).decide("text", QUESTIONS)
        assert answers.missing(QUESTIONS) == ["relevant", "tone", "grade"]


def test_one_missing_answer(fast_policy) -> None:
    with SystemOneServer(lambda s, q: {"relevant": 0.25, "grade": wire_score([1, 0, 0, 0])}) as srv:
        answers, _ = _model(srv, fast_policy).decide("text", QUESTIONS)
        assert answers.missing(QUESTIONS) == ["tone"]
        assert answers.nouls["relevant"].probability == 0.25 and answers.scores["grade"].score == 0.0


def test_usage_override_and_cost_settings(fast_policy, monkeypatch) -> None:
    reply = SystemOneReply(
        {"relevant": wire_noul(0.5)}, usage={"input_tokens": 2_000_000, "output_tokens": 7}
    )
    monkeypatch.setenv("TYPESAFE_COST_PER_INPUT_TOKEN", "1e-7")
    with SystemOneServer(lambda s, q: reply) as srv:
        _, cost = _model(srv, fast_policy).decide("x", {"relevant": QUESTIONS["relevant"]})
        assert cost == pytest.approx(0.2)
        _, cost = _model(srv, fast_policy, cost_per_input_token=0.042e-6).decide(
            "x", {"relevant": QUESTIONS["relevant"]}
        )
        assert cost == pytest.approx(0.084)


def test_401_is_auth_not_retried_and_key_hidden(fast_policy) -> None:
    with SystemOneServer(api_key="another-key") as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage, pytest.raises(SystemOneError) as info:
            model.decide("x", QUESTIONS)
        err = info.value
        assert err.kind == "auth" and err.status_code == 401 and not err.retryable
        assert srv.counters.requests == 1 and usage.retries == 0
        assert "jev-latest" in str(err)
        assert (
            KEY not in str(err)
            and KEY not in repr(err)
            and KEY not in repr(model)
            and KEY not in str(vars(model))
        )


def test_server_echoing_the_key_is_redacted(fast_policy) -> None:
    with SystemOneServer(faults=[Fault.http_status(403, {"detail": f"key {KEY} may not use jev"})]) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy).decide("x", QUESTIONS)
        assert info.value.kind == "auth" and KEY not in str(info.value) and "***" in str(info.value)


def test_422_detail_is_reported_and_not_retried(fast_policy) -> None:
    detail = {
        "detail": [
            {"loc": ["body", "questions", "q", "criteria"], "msg": "too many levels", "type": "value_error"}
        ]
    }
    with SystemOneServer(faults=[Fault.http_status(422, detail)]) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy).decide("x", QUESTIONS)
        assert info.value.kind == "bad_request" and info.value.status_code == 422
        assert "questions.q.criteria: too many levels" in str(info.value)
        assert srv.counters.requests == 1


def test_unknown_model(fast_policy) -> None:
    # the live API's 400 {"detail": {"error_type": "api_usage_error", "message": "Unknown model: jev-0"}}: a configured
    # name is never replaced; the error names the served models (from GET /v1/models)
    with SystemOneServer() as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy, model="jev-0").decide("x", QUESTIONS)
        err = info.value
        assert err.status_code == 400 and err.kind == "model_unavailable" and not err.retryable
        assert "Unknown model: jev-0" in str(err) and "the server serves: jev-latest, jev-2026-10-01" in str(
            err
        )
        assert srv.counters.requests == 1 and srv.counters.get_requests == 1


def test_429_then_500_retried_with_retry_after(fast_policy) -> None:
    faults = [Fault.rate_limited(retry_after=0.2), Fault.server_error(500)]
    with SystemOneServer(full_responder, faults=faults) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage:
            t0 = time.perf_counter()
            answers, _ = model.decide("x", QUESTIONS)
            elapsed = time.perf_counter() - t0
        assert answers.missing(QUESTIONS) == []
        assert srv.counters.requests == 3 and usage.retries == 2 and elapsed >= 0.2
        assert usage.system_one_requests == 1


def test_persistent_429_is_a_retryable_rate_limit_error() -> None:
    policy = RetryPolicy(max_retries=2, timeout=2, base_delay=0.001, max_delay=0.002)
    with SystemOneServer(failure_rate=1.0, failure=Fault.rate_limited(retry_after_ms=10)) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, policy).decide("x", QUESTIONS)
        assert info.value.kind == "rate_limit" and info.value.retryable and srv.counters.requests == 3


def test_timeout_and_non_json() -> None:
    policy = RetryPolicy(max_retries=1, timeout=0.15, base_delay=0.001, max_delay=0.002)
    with SystemOneServer(faults=[Fault.slow(2), Fault.slow(2)]) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, policy).decide("x", QUESTIONS)
        assert info.value.kind == "timeout" and srv.counters.requests == 2
    with SystemOneServer(faults=[Fault.non_json(), Fault.non_json()]) as srv:
        with pytest.raises(SystemOneError, match="not JSON") as info:
            _model(srv, policy).decide("x", QUESTIONS)
        assert info.value.kind == "server"
    # a 200 without answers is not retried (each request is billed): one clear error naming what came back
    with SystemOneServer(full_responder, faults=[Fault.drop_field("answers")]) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, policy).decide("x", QUESTIONS)
        assert info.value.kind == "server" and not info.value.retryable and srv.counters.requests == 1
        assert "without an 'answers' object (fields present: ['model', 'usage'])" in str(info.value)


@pytest.mark.parametrize("chunked", [False, True], ids=["length", "chunked"])
def test_a_reply_over_the_size_limit_is_a_system_one_error_naming_it(
    monkeypatch, fast_policy, chunked
) -> None:
    """The /v1/systemone reply body is read up to DEEPEVAL_JUDGE_MAX_REPLY_BYTES (outside attack 7: a 200 MB judge
    reply was read whole): past it, a `server` SystemOneError naming the limit, not retried, no key in it."""
    monkeypatch.setenv("DEEPEVAL_JUDGE_MAX_REPLY_BYTES", "65536")
    with SystemOneServer(full_responder, faults=[Fault.oversize(1 << 20, chunked=chunked)]) as srv:
        model = _model(srv, fast_policy)
        with pytest.raises(SystemOneError) as info:
            model.decide("x", QUESTIONS)
        assert srv.counters.requests == 1
        answers, _cost = model.decide("x", QUESTIONS)  # the next reply, under the limit
    assert info.value.kind == "server" and not info.value.retryable
    assert "over the limit of 65,536 bytes (DEEPEVAL_JUDGE_MAX_REPLY_BYTES)" in str(info.value)
    assert KEY not in str(info.value) and answers.nouls["relevant"].probability == 0.9


def test_budget_refuses_oversized_requests_without_sending(fast_policy) -> None:
    with SystemOneServer() as srv:
        model = _model(srv, fast_policy)
        big_state = "x" * (3 * 32_000)  # 32,000 tokens on its own: + any question is over
        with pytest.raises(RequestTooLargeError) as info:
            model.decide(big_state, QUESTIONS)
        assert (
            info.value.kind == "context_limit"
            and "'llm'" in str(info.value)
            and "jev-latest" in str(info.value)
        )
        # each question fits with the state, but the whole request does not
        qs = {f"q{i}": NoulQuestion(instructions="y" * 30_000) for i in range(8)}
        with pytest.raises(RequestTooLargeError, match="in all"):
            model.decide("short state", qs)
        assert srv.counters.requests == 0


def test_budget_boundary_is_exact() -> None:
    q = {"type": "noul", "instructions": "?"}
    q_tokens = estimate_tokens('{"type":"noul","instructions":"?"}')
    state = "a" * (3 * (32_000 - q_tokens))
    check_budget(state, {"q": q}, {"state": state}, model="m")  # exactly at the limit: allowed
    with pytest.raises(RequestTooLargeError):
        check_budget(state + "a", {"q": q}, {"state": state}, model="m")
    assert estimate_tokens("abcd") == 2 and math.ceil(0 / 3) == estimate_tokens("")


def test_missing_key_is_auth_error_at_call_time(monkeypatch) -> None:
    model = TypeSafeModel(base_url="https://jev.example.invalid")  # constructing needs no key
    with pytest.raises(SystemOneError) as info:
        model.decide("x", QUESTIONS)
    assert info.value.kind == "auth" and "TYPESAFE_API_KEY" in str(info.value)


def test_settings_and_unsupported_question(monkeypatch, fast_policy) -> None:
    with SystemOneServer(full_responder, api_key=KEY, models={"jev-pro": "jev-pro-7"}) as srv:
        monkeypatch.setenv("TYPESAFE_API_KEY", KEY)
        monkeypatch.setenv("TYPESAFE_BASE_URL", srv.base_url)
        monkeypatch.setenv("TYPESAFE_MODEL_NAME", "jev-pro")
        model = TypeSafeModel(retry_policy=fast_policy)
        answers, _ = asyncio.run(model.a_decide([{"role": "user", "content": "hi"}], QUESTIONS))
        assert answers.model == "jev-pro-7" and model.get_model_name() == "jev-pro (jev-pro-7)"
        with pytest.raises(UnsupportedQuestionError):
            model.decide("x", {"q": "not a question"})  # type: ignore[dict-item]


def test_empty_questions_send_nothing(fast_policy) -> None:
    with SystemOneServer() as srv:
        answers, cost = _model(srv, fast_policy).decide("x", {})
        assert answers.missing({}) == [] and cost == 0.0 and srv.counters.requests == 0


def test_concurrent_decides_share_limiter(fast_policy) -> None:
    with SystemOneServer(full_responder, latency=0.05) as srv:
        model = _model(srv, fast_policy, max_concurrency=3)

        async def run() -> int:
            results = await asyncio.gather(*(model.a_decide(f"s{i}", QUESTIONS) for i in range(9)))
            await model.aclose()
            return sum(len(a.missing(QUESTIONS)) for a, _ in results)

        assert asyncio.run(run()) == 0
        assert srv.counters.max_in_flight == 3 and srv.counters.requests == 9
