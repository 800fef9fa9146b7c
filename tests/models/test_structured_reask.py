"""One structured-output layer: against a real loopback server, a call re-asks exactly once whatever went wrong
(bad JSON, a failed schema, a failed caller check), and every request the server saw is counted in usage."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from pydantic import BaseModel

from deepeval.errors import StructuredOutputError
from deepeval.models import OpenAIModel
from deepeval.models.retry import RetryPolicy
from deepeval.models.structured import a_generate_structured
from deepeval.models.usage import track_usage
from deepeval.testing.servers import OpenAIChatServer

KEY = "sk-test-reask-0123456789"


class Verdicts(BaseModel):
    verdicts: list[str]


def _two_verdicts(obj: Verdicts) -> None:
    if len(obj.verdicts) != 2:
        raise ValueError(f"expected 2 verdicts, got {len(obj.verdicts)}")


def _model(srv: OpenAIChatServer, policy: RetryPolicy) -> OpenAIModel:
    return OpenAIModel(api_key=KEY, base_url=srv.base_url, retry_policy=policy)


def test_bad_json_then_wrong_count_is_one_reask_of_two_requests(fast_policy: RetryPolicy) -> None:
    replies = itertools.cycle(["{not json at all", {"content": {"verdicts": ["yes"]}}])
    with OpenAIChatServer(lambda req: next(replies), api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage, pytest.raises(StructuredOutputError, match="expected 2 verdicts"):
            asyncio.run(a_generate_structured(model, "judge", Verdicts, check=_two_verdicts))
        assert srv.counters.requests == 2  # the first reply and one re-ask, not a re-ask inside a re-ask
        assert usage.llm_calls == 2 and usage.retries == 0
        assert usage.llm_calls + usage.retries == srv.counters.requests


def test_reply_that_never_parses_counts_both_requests(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(
        lambda req: {"content": "no json here", "usage": {"prompt_tokens": 3, "completion_tokens": 3}},
        api_key=KEY,
    ) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage, pytest.raises(StructuredOutputError):
            asyncio.run(a_generate_structured(model, "judge", Verdicts))
        assert srv.counters.requests == 2
        assert usage.llm_calls == 2
        assert usage.input_tokens == 6 and usage.output_tokens == 6


def test_wrong_count_then_right_count_succeeds_with_two_requests(fast_policy: RetryPolicy) -> None:
    replies = iter([{"content": {"verdicts": ["yes"]}}, {"content": {"verdicts": ["yes", "no"]}}])
    with OpenAIChatServer(lambda req: next(replies), api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage:
            got = asyncio.run(a_generate_structured(model, "judge", Verdicts, check=_two_verdicts))
        assert got.verdicts == ["yes", "no"]
        assert srv.counters.requests == 2 and usage.llm_calls == 2
        assert "expected 2 verdicts" in srv.counters.bodies[1]["messages"][0]["content"]


def test_direct_a_generate_with_schema_reasks_once_and_counts_it(fast_policy: RetryPolicy) -> None:
    with OpenAIChatServer(lambda req: "never json", api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage, pytest.raises(StructuredOutputError):
            model.generate("judge", Verdicts)
        assert srv.counters.requests == 2
        assert usage.llm_calls + usage.retries == 2


def test_sync_adapter_keeps_one_reask(fast_policy: RetryPolicy) -> None:
    from deepeval.metrics._engine.judges import SyncLLM

    replies = itertools.cycle(["{not json at all", {"content": {"verdicts": ["yes"]}}])
    with OpenAIChatServer(lambda req: next(replies), api_key=KEY) as srv:
        model = SyncLLM(_model(srv, fast_policy))  # what async_mode=False metrics call
        with track_usage() as usage, pytest.raises(StructuredOutputError, match="expected 2 verdicts"):
            asyncio.run(a_generate_structured(model, "judge", Verdicts, check=_two_verdicts))
        assert srv.counters.requests == 2 and usage.llm_calls == 2
