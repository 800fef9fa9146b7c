"""Typed error contracts: ``JudgeError.kind`` is an :class:`ErrorKind` that still compares and hashes like the
plain string, and retry data (``retry_after``, ``param``, ``attempts``) are declared fields."""

from __future__ import annotations

import asyncio
import json

from deepeval.errors import ErrorKind, JudgeError, StructuredOutputError, SystemOneError
from deepeval.models.http.retry import RetryPolicy, call_with_retries, error_for_status


def test_kind_is_an_enum_that_equals_its_string() -> None:
    err = JudgeError("boom", kind="timeout")
    assert err.kind is ErrorKind.timeout
    assert err.kind == "timeout" and err.kind in {"timeout", "connection"} and f"{err.kind}" == "timeout"
    assert json.dumps({"kind": err.kind}) == '{"kind": "timeout"}'
    assert StructuredOutputError("bad").kind is ErrorKind.invalid_output
    assert JudgeError("x").kind is ErrorKind.error


def test_a_kind_of_a_callers_own_stays_a_string() -> None:
    assert JudgeError("x", kind="quota_exhausted").kind == "quota_exhausted"


def test_retry_data_are_fields() -> None:
    plain = JudgeError("x")
    assert (plain.retry_after, plain.param, plain.attempts) == (None, None, None)
    err = error_for_status(429, model="m", detail="slow down", retry_after=2.5, param="messages")
    assert err.kind is ErrorKind.rate_limit and err.retry_after == 2.5 and err.param == "messages"
    s1 = error_for_status(503, model="m", detail="", error_cls=SystemOneError)
    assert isinstance(s1, SystemOneError) and s1.kind is ErrorKind.server and s1.retryable


def test_attempts_recorded_on_give_up() -> None:
    calls = 0

    async def failing() -> None:
        nonlocal calls
        calls += 1
        raise JudgeError("down", kind="server", retryable=True)

    policy = RetryPolicy(max_retries=2, timeout=1.0, base_delay=0.001, max_delay=0.002)
    try:
        asyncio.run(call_with_retries(failing, policy=policy, model="m"))
    except JudgeError as exc:
        assert exc.attempts == 3 == calls
    else:
        raise AssertionError("expected JudgeError")
