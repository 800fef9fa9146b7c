"""TypeSafeModel against servers other than TypeSafe's own (issue 39): the loopback /v1/systemone server sends the
exact bodies the live API and avrik-server send (error bodies, batch replies, object legends, abstain, /v1/models),
and the client reads them."""

from __future__ import annotations

import asyncio
import logging

import pytest

from deepeval.errors import ErrorKind, SystemOneError
from deepeval.models import TypeSafeModel
from deepeval.models.http.errors import error_for_status, kind_for_error_type
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.system_one import ChoiceQuestion, NoulQuestion, ScoreQuestion
from deepeval.models.system_one.typesafe import is_loopback, served_model_names, wire_question
from deepeval.models.usage import track_usage
from deepeval.testing.servers import (
    MAX_TOKENS_EXCEEDED,
    Fault,
    SystemOneReply,
    SystemOneServer,
    avrik_error,
    wire_choice,
    wire_noul,
    wire_score,
)

KEY = "ts-interop-SECRET-0123456789"
NOUL = NoulQuestion(instructions="Is this message about billing?")


def _model(srv: SystemOneServer, policy: RetryPolicy, **kw: object) -> TypeSafeModel:
    return TypeSafeModel(base_url=srv.base_url, retry_policy=policy, **kw)  # type: ignore[arg-type]


def _nouls(n: int) -> dict[str, NoulQuestion]:
    return {f"q{i}": NoulQuestion(instructions=f"Is statement {i} relevant?") for i in range(n)}


# -- (1) error classification by the body's error type -------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "body", "kind", "error_type"),
    [
        # Jev: a context refusal is a 400 whose detail carries only the error type
        (400, MAX_TOKENS_EXCEEDED, ErrorKind.context_limit, "max_tokens_exceeded"),
        # avrik-server: 422 with a stable code
        (
            422,
            avrik_error(
                "context_too_large",
                "9000 prompt tokens exceed the maximum context length of 8191",
                "questions.q",
            ),
            ErrorKind.context_limit,
            "context_too_large",
        ),
        (
            422,
            avrik_error(
                "model_unavailable",
                "model 'jev-latest' is not loaded here; this server serves 'avrik-qwen3'",
                "model",
            ),
            ErrorKind.model_unavailable,
            "model_unavailable",
        ),
        # Jev: an unknown model is a usage error named only by its message
        (
            400,
            {"detail": {"error_type": "api_usage_error", "message": "Unknown model: jev-0"}},
            ErrorKind.model_unavailable,
            "api_usage_error",
        ),
        # a usage error of another kind stays a plain bad request
        (
            400,
            {"detail": {"error_type": "api_usage_error", "message": "Invalid request."}},
            ErrorKind.bad_request,
            "api_usage_error",
        ),
    ],
)
def test_error_type_in_the_body_decides_the_kind(fast_policy, status, body, kind, error_type) -> None:
    with SystemOneServer(faults=[Fault.http_status(status, body)], models={"m": "m"}) as srv:
        with track_usage() as usage, pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy, model="m").decide("x", {"q": NOUL})
    err = info.value
    assert err.kind == kind and err.status_code == status and not err.retryable
    assert err.error_type == error_type and err.request_id == "req-loopback-1"
    assert srv.counters.requests == 1 and usage.retries == 0  # never retried
    assert "(request id req-loopback-1)" in str(err)
    if body is MAX_TOKENS_EXCEEDED:  # Jev sends no message: the type stands for it
        assert (
            "HTTP 400 (max_tokens_exceeded: the request is too large for the server): max_tokens_exceeded"
            in (str(err))
        )


def test_one_mapping_serves_both_client_families() -> None:
    # OpenAI's own code still maps as before, through the same table
    assert kind_for_error_type("context_length_exceeded") == ErrorKind.context_limit
    assert kind_for_error_type("too_many_questions") == ErrorKind.context_limit
    assert kind_for_error_type("insufficient_quota") is None and kind_for_error_type(None) is None
    err = error_for_status(400, model="gpt", detail="too long", code="context_length_exceeded")
    assert (
        err.kind == ErrorKind.context_limit
        and not err.retryable
        and err.error_type == "context_length_exceeded"
    )


def test_the_servers_token_budget_refusal(fast_policy) -> None:
    # a ~6,800-character state is over a small self-hosted server's budget: 400 max_tokens_exceeded, kind context_limit
    with SystemOneServer(max_request_tokens=2000) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy).decide("word " * 1360, {"q": NOUL})
    assert info.value.kind == ErrorKind.context_limit and srv.counters.requests == 1


def test_requests_split_at_the_question_cap_and_merged(fast_policy) -> None:
    def responder(state, questions):
        return {qid: wire_noul(0.25 if int(qid[1:]) % 2 else 0.75) for qid in questions}

    with SystemOneServer(responder, max_questions=64) as srv:
        model = _model(srv, fast_policy, cost_per_input_token=1e-6)
        with track_usage() as usage:
            answers, cost = model.decide("state", _nouls(70))
    sizes = sorted(len(b["questions"]) for b in srv.counters.bodies)
    assert sizes == [6, 64] and srv.counters.requests == 2 and usage.system_one_requests == 2
    assert answers.missing(_nouls(70)) == [] and answers.refused == {}
    assert answers.nouls["q3"].probability == 0.25 and answers.nouls["q68"].probability == 0.75
    assert answers.input_tokens == srv.counters.input_tokens and cost == pytest.approx(
        srv.counters.input_tokens * 1e-6
    )
    assert sorted(answers.request_ids) == sorted(srv.request_ids)


def test_setting_the_question_cap(fast_policy, monkeypatch) -> None:
    monkeypatch.setenv("TYPESAFE_MAX_QUESTIONS", "10")
    with SystemOneServer() as srv:
        model = _model(srv, fast_policy)
        answers, _ = model.decide("state", _nouls(25))
    assert model.max_questions == 10 and answers.missing(_nouls(25)) == []
    assert sorted(len(b["questions"]) for b in srv.counters.bodies) == [5, 10, 10]
    with pytest.raises(ValueError, match="max_questions"):
        TypeSafeModel(base_url="http://127.0.0.1:1", max_questions=0)


def test_a_lower_server_cap_is_learned_by_halving(fast_policy) -> None:
    # avrik-server configured for 20 questions refuses 64 (422 too_many_questions): halves until they pass
    with SystemOneServer(max_questions=20) as srv:
        model = _model(srv, fast_policy)
        answers, _ = model.decide("state", _nouls(70))
        assert answers.missing(_nouls(70)) == []
        assert srv.counters.requests == 8 and srv.counters.replied_ok == 5  # 64, 6, 32, 32, 16 x 4
        assert model.max_questions == 16
        srv.reset_counters()
        model.decide("state", _nouls(70))  # later calls use the size that passed
        assert srv.counters.requests == srv.counters.replied_ok == 5


def test_a_refused_request_leaves_only_its_questions_unanswered(fast_policy) -> None:
    questions = {
        "short": NoulQuestion(instructions="Is it short?"),
        "long": NoulQuestion(instructions="Is it long? " + "very " * 600),
    }
    with SystemOneServer(max_request_tokens=500) as srv:
        answers, _ = _model(srv, fast_policy, max_questions=1).decide("state", questions)
    assert answers.missing(questions) == ["long"] and answers.nouls["short"].probability == 0.5
    assert "max_tokens_exceeded" in answers.refused["long"] and list(answers.refused) == ["long"]
    # every request refused: the call fails with the refusal
    with SystemOneServer(max_request_tokens=5) as srv, pytest.raises(SystemOneError) as info:
        _model(srv, fast_policy, max_questions=1).decide("state", questions)
    assert info.value.kind == ErrorKind.context_limit


# -- (2) a 2xx body without answers; batch replies ---------------------------------------------------------------


def _batch_reply(results: list[dict[str, object]]) -> object:
    # avrik-server's reply to a state it reads as a batch: "results" in place of "answers"
    return {"model": "avrik-qwen3", "results": results, "usage": {"input_tokens": 12, "output_tokens": 1}}


def test_a_batch_reply_is_not_retried_and_is_named(fast_policy) -> None:
    reply = _batch_reply(
        [{"id": "a", "answers": {"q": wire_noul(0.9)}}, {"id": "b", "answers": {"q": wire_noul(0.1)}}]
    )
    with SystemOneServer(faults=[Fault.http_status(200, reply)]) as srv:
        with track_usage() as usage, pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy).decide(
                [{"id": "a", "text": "one"}, {"id": "b", "text": "two"}], {"q": NOUL}
            )
    err = info.value
    assert srv.counters.requests == 1 and usage.retries == 0 and not err.retryable and err.kind == "server"
    assert "a batch reply ('results' for 2 input(s)) instead of 'answers'" in str(err)
    assert "(request id req-loopback-1)" in str(err)


def test_a_batch_reply_of_one_input_is_read(fast_policy) -> None:
    reply = _batch_reply([{"id": "a", "answers": {"q": wire_noul(0.9)}}])
    with SystemOneServer(faults=[Fault.http_status(200, reply)]) as srv:
        answers, _ = _model(srv, fast_policy).decide([{"id": "a", "text": "one"}], {"q": NOUL})
    assert answers.nouls["q"].probability == 0.9 and answers.model == "avrik-qwen3"


# -- (3) noul criteria with both keys; (4) question text as any JSON ---------------------------------------------


def test_noul_with_one_side_described_sends_both_keys(fast_policy) -> None:
    with SystemOneServer() as srv:
        _model(srv, fast_policy).decide(
            "x", {"q": NoulQuestion(instructions="Spam?", true="unsolicited ads")}
        )
    assert srv.counters.bodies[0]["questions"]["q"]["criteria"] == {"true": "unsolicited ads", "false": None}
    assert wire_question(NoulQuestion(instructions="Spam?", false="a real message"))["criteria"] == {
        "true": None,
        "false": "a real message",
    }
    assert "criteria" not in wire_question(NOUL)


def test_question_text_may_be_any_json(fast_policy) -> None:
    # as deepeval 4.3.1 (instructions: Any; options: Dict[str, Any]; levels: List[Any]) and the API's schema
    questions = {
        "n": NoulQuestion(
            instructions={"claim": "Refunds take 30 days.", "question": "Does `excerpt` support `claim`?"},
            true=["it states it", "it implies it"],
        ),
        "c": ChoiceQuestion(
            instructions=["Which team?"], options={"billing": {"covers": "refunds"}, "other": None}
        ),
        "s": ScoreQuestion(
            instructions="How urgent?", levels=[{"level": "can wait"}, "this week", ["today"]]
        ),
    }

    def responder(state, qs):
        return {
            "n": wire_noul(0.8),
            "c": wire_choice({"billing": 0.9, "other": 0.1}),
            "s": wire_score([0.1, 0.2, 0.7], legend=qs["s"]["criteria"]),
        }

    with SystemOneServer(responder) as srv:
        answers, _ = _model(srv, fast_policy).decide({"excerpt": "We refund within 30 days."}, questions)
    sent = srv.counters.bodies[0]["questions"]
    assert sent["n"]["instructions"] == questions["n"].instructions
    assert sent["n"]["criteria"] == {"true": ["it states it", "it implies it"], "false": None}
    assert sent["c"]["criteria"]["billing"] == {"covers": "refunds"}
    assert sent["s"]["criteria"] == [{"level": "can wait"}, "this week", ["today"]]
    assert answers.missing(questions) == [] and answers.choices["c"].choice == "billing"
    # an object or array level is read back as its JSON text
    assert answers.scores["s"].legend == ['{"level": "can wait"}', "this week", '["today"]']


# -- (5) score legend: an object keyed "0", "1", ... (and still a list) -----------------------------------------


def test_legend_object_and_list_are_read(fast_policy) -> None:
    levels = ["can wait", "this week", "today"]
    urgency = ScoreQuestion(instructions="How urgent?", levels=["low", "mid", "high"])
    live_like = {
        "type": "score",
        "score": 1.91,
        "confidence": 0.86,
        "legend": {"0": levels[0], "1": levels[1], "2": levels[2]},
        "probabilities": {"0": 0.0, "1": 0.09, "2": 0.91},
    }
    as_list = {**live_like, "legend": levels}
    for answer in (live_like, as_list):
        with SystemOneServer(lambda s, q, a=answer: {"u": a}) as srv:
            answers, _ = _model(srv, fast_policy).decide("x", {"u": urgency})
        got = answers.scores["u"]
        assert got.legend == levels and got.score == 1.91 and got.top_level == 2
    # our loopback server writes the legend as the live API does
    assert wire_score([0.2, 0.8], legend=["no", "yes"])["legend"] == {"0": "no", "1": "yes"}


# -- (6) /v1/models, 403 for a missing key, request id, abstain, served model, no key on loopback, cost ----------


def test_missing_key_gets_403_with_a_hint_that_fits(fast_policy) -> None:
    with SystemOneServer(api_key=KEY) as srv:
        with pytest.raises(SystemOneError) as info:
            _model(srv, fast_policy).decide("x", {"q": NOUL})  # loopback: sent without a key
    err = info.value
    assert err.status_code == 403 and err.kind == ErrorKind.auth and srv.counters.authorization == [None]
    assert "check that an API key is set" in str(err) and "not allowed to use this model" not in str(err)


def test_no_key_needed_on_a_loopback_server(fast_policy) -> None:
    assert (
        is_loopback("http://127.0.0.1:8080")
        and is_loopback("http://localhost:1")
        and is_loopback("http://[::1]:2")
    )
    assert not is_loopback("https://api.typesafe.ai") and not is_loopback("http://10.0.0.2:8080")
    with SystemOneServer() as srv:
        answers, _ = _model(srv, fast_policy).decide("x", {"q": NOUL})
    assert answers.nouls["q"].probability == 0.5 and srv.counters.authorization == [None]


def test_request_id_in_errors_and_debug_log(fast_policy, caplog) -> None:
    with caplog.at_level(logging.DEBUG, logger="deepeval.models.system_one"):
        with SystemOneServer() as srv:
            answers, _ = _model(srv, fast_policy).decide("x", {"q": NOUL})
    assert answers.request_ids == ["req-loopback-1"]
    assert "HTTP 200" in caplog.text and "(request id req-loopback-1)" in caplog.text


def test_abstain_is_read_as_unsure(fast_policy) -> None:
    # avrik-server adds top, margin, abstain, avrik_confidence to each answer
    def responder(state, qs):
        return {
            "a": {**wire_noul(0.55), "top": 0.55, "margin": 0.1, "abstain": True, "avrik_confidence": 0.1},
            "b": {**wire_noul(0.95), "top": 0.95, "margin": 0.9, "abstain": False, "avrik_confidence": 0.9},
        }

    with SystemOneServer(responder) as srv:
        answers, _ = _model(srv, fast_policy).decide("x", {"a": NOUL, "b": NOUL})
    assert answers.tiers == {"a": "unsure"} and answers.nouls["a"].probability == 0.55


@pytest.mark.parametrize(
    "refusal",
    [
        None,  # the live API's 400 "Unknown model: jev-latest" (what our loopback server sends)
        Fault.http_status(
            422, avrik_error("model_unavailable", "model 'jev-latest' is not loaded here", "model")
        ),
    ],
)
def test_default_model_replaced_by_the_served_one(fast_policy, refusal) -> None:
    with SystemOneServer(models={"avrik-qwen3": "avrik-qwen3"}, faults=[refusal] if refusal else []) as srv:
        model = _model(srv, fast_policy)
        assert model.name == "jev-latest"
        answers, _ = model.decide("x", {"q": NOUL})
    assert answers.nouls["q"].probability == 0.5 and model.name == "avrik-qwen3"
    assert [b["model"] for b in srv.counters.bodies] == ["jev-latest", "avrik-qwen3"]
    assert srv.counters.get_requests == 1


def test_served_model_names_shapes() -> None:
    live = {
        "models": [{"name": "jev-latest", "description": "d", "release_date": "2026-09-10T18:38:01+00:00"}]
    }
    assert served_model_names(live) == ["jev-latest"]
    assert served_model_names({"data": [{"id": "m1"}, {"id": "m2"}]}) == ["m1", "m2"]
    assert served_model_names([1, 2]) == [] and served_model_names({"models": "x"}) == []


def test_cost_only_with_a_known_price(fast_policy, monkeypatch) -> None:
    assert TypeSafeModel(api_key="k").cost_per_input_token == pytest.approx(0.042e-6)  # TypeSafe's own API
    assert TypeSafeModel(base_url="https://jev.example.org").cost_per_input_token is None
    assert (
        TypeSafeModel(base_url="https://jev.example.org", cost_per_input_token=0).cost_per_input_token == 0.0
    )
    monkeypatch.setenv("TYPESAFE_COST_PER_INPUT_TOKEN", "2e-7")
    assert TypeSafeModel(base_url="https://jev.example.org").cost_per_input_token == pytest.approx(2e-7)
    monkeypatch.delenv("TYPESAFE_COST_PER_INPUT_TOKEN")
    reply = SystemOneReply({"q": wire_noul(0.5)}, usage={"input_tokens": 1000, "output_tokens": 1})
    with SystemOneServer(lambda s, q: reply) as srv:
        _, cost = _model(srv, fast_policy).decide("x", {"q": NOUL})
        assert cost is None
        _, cost = _model(srv, fast_policy, cost_per_input_token=1e-6).decide("x", {"q": NOUL})
        assert cost == pytest.approx(1e-3)


def test_concurrent_split_requests_share_the_limiter(fast_policy) -> None:
    with SystemOneServer(latency=0.02) as srv:
        model = _model(srv, fast_policy, max_questions=2, max_concurrency=2)

        async def run() -> list[str]:
            answers, _ = await model.a_decide("x", _nouls(9))
            await model.aclose()
            return answers.missing(_nouls(9))

        assert asyncio.run(run()) == []
    assert srv.counters.requests == 5 and srv.counters.max_in_flight == 2


def test_loopback_server_reads_compressed_request_bodies() -> None:
    # the official SDK sends bodies of 1 KiB and more zstd-compressed where Python has zstd
    import gzip
    import json

    import httpx

    body = json.dumps(
        {"model": "jev-latest", "state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}}
    )
    with SystemOneServer() as srv:
        headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
        r = httpx.post(f"{srv.base_url}/v1/systemone", content=gzip.compress(body.encode()), headers=headers)
        assert r.status_code == 200 and r.json()["answers"]["q"] == {"type": "noul", "noul": 0.5}
        headers["Content-Encoding"] = "br"
        r = httpx.post(f"{srv.base_url}/v1/systemone", content=body.encode(), headers=headers)
        assert r.status_code == 415 and "'br' is not supported" in r.json()["detail"]
