"""One structured-output layer: against a real loopback server, a call re-asks exactly once whatever went wrong
(bad JSON, a failed schema, a failed caller check), and every request the server saw is counted in usage."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest
from pydantic import BaseModel

from deepeval.errors import StructuredOutputError
from deepeval.models import OpenAIModel
from deepeval.models.http.retry import RetryPolicy
from deepeval.models.structured import ItemCount, a_generate_structured, counted_schema
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


class Verdict(BaseModel):
    verdict: str


class VerdictList(BaseModel):
    verdicts: list[Verdict]


THREE = ItemCount("verdicts", 3, item="verdict", unit="statement")


def test_a_short_list_gets_a_reask_showing_the_reply_and_what_is_missing(fast_policy: RetryPolicy) -> None:
    # SmolLM2 lost a verdict this way in issue 23 ("expected exactly 3 verdicts, got 2" after 509 s)
    first = {"verdicts": [{"verdict": "yes"}, {"verdict": "no"}]}
    replies = iter(
        [{"content": first}, {"content": {"verdicts": [{"verdict": v} for v in ("yes", "no", "yes")]}}]
    )
    with OpenAIChatServer(lambda req: next(replies), api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        with track_usage() as usage:
            got = asyncio.run(a_generate_structured(model, "judge these 3", VerdictList, check=THREE))
        assert [v.verdict for v in got.verdicts] == ["yes", "no", "yes"]
        assert srv.counters.requests == 2 and usage.llm_calls == 2  # the re-ask is one counted request
        reask = srv.counters.bodies[1]["messages"][0]["content"]
        assert reask.startswith("judge these 3\n\nYour previous reply was:\n")
        assert json.loads(reask.split("Your previous reply was:\n", 1)[1].split("\n\n", 1)[0]) == first
        assert "expected exactly 3 verdicts, one per statement and in order, got 2" in reask
        assert "1 statement has no verdict" in reask and 'exactly 3 verdicts in "verdicts"' in reask


def test_a_long_list_gets_a_reask_naming_the_extra_items(fast_policy: RetryPolicy) -> None:
    five = {"verdicts": [{"verdict": "yes"}] * 5}
    replies = iter([{"content": five}, {"content": five}])
    with OpenAIChatServer(lambda req: next(replies), api_key=KEY) as srv:
        model = _model(srv, fast_policy)
        with pytest.raises(StructuredOutputError, match="got 5"):
            asyncio.run(a_generate_structured(model, "judge these 3", VerdictList, check=THREE))
        reask = srv.counters.bodies[1]["messages"][0]["content"]
        assert "2 verdicts are too many" in reask and srv.counters.requests == 2


class _GrammarJudge(OpenAIModel):
    constrains_item_counts = True


def _sent_array(body: dict) -> dict:
    schema = body["response_format"]["json_schema"]["schema"]
    return schema["properties"]["verdicts"]


def test_the_count_goes_into_the_schema_only_for_judges_that_constrain_decoding(
    fast_policy: RetryPolicy,
) -> None:
    from deepeval.metrics._engine.judges import SyncLLM

    three = {"content": {"verdicts": [{"verdict": "yes"}] * 3}}
    with OpenAIChatServer(lambda req: three, api_key=KEY) as srv:
        grammar = _GrammarJudge(api_key=KEY, base_url=srv.base_url, retry_policy=fast_policy)
        plain_judge = OpenAIModel(api_key=KEY, base_url=srv.base_url, retry_policy=fast_policy)
        for model in (grammar, SyncLLM(grammar), plain_judge):  # SyncLLM: what async_mode=False metrics call
            got = asyncio.run(a_generate_structured(model, "judge these 3", VerdictList, check=THREE))
            assert isinstance(got, VerdictList) and len(got.verdicts) == 3
        constrained, constrained_sync, plain = (_sent_array(b) for b in srv.counters.bodies)
        assert (
            (constrained["minItems"], constrained["maxItems"]) == (3, 3) == (constrained_sync["minItems"], 3)
        )
        assert "minItems" not in plain and "maxItems" not in plain
        assert srv.counters.bodies[0]["response_format"]["json_schema"]["name"] == "VerdictList"


def test_counted_schema_leaves_a_field_that_is_not_a_list_alone() -> None:
    assert counted_schema(VerdictList, "verdicts", 2) is not VerdictList
    assert issubclass(counted_schema(VerdictList, "verdicts", 2), VerdictList)
    assert counted_schema(Verdict, "verdict", 2) is Verdict
    assert counted_schema(VerdictList, "missing", 2) is VerdictList


def test_a_reply_cut_at_the_token_cap_is_not_repaired_into_a_shorter_list(fast_policy: RetryPolicy) -> None:
    # SmolLM2 through the GGUF judge: its statement list ran into the 512-token cap, json_repair closed the cut
    # JSON and 34 of 45 verdicts came back as "expected exactly 45 verdicts, got 34". A cut reply is now named.
    from deepeval.models import LocalModel

    many = {"verdicts": [{"verdict": "yes"}] * 40}
    with OpenAIChatServer(lambda req: {"content": many}, api_key=KEY) as srv:
        model = LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=fast_policy)
        model.max_tokens = 30  # the loopback server cuts the reply after 30 words, finish_reason "length"
        with (
            track_usage() as usage,
            pytest.raises(StructuredOutputError, match="cut off at the token cap after 30 "),
        ):
            asyncio.run(a_generate_structured(model, "judge", VerdictList))
        assert srv.counters.requests == 2 and usage.llm_calls == 2
        assert "cut off at the token cap" in srv.counters.bodies[1]["messages"][0]["content"]
        model.max_tokens = 10_000  # whole: accepted as it is
        assert len(asyncio.run(a_generate_structured(model, "judge", VerdictList)).verdicts) == 40


def test_a_reply_that_ends_exactly_at_the_cap_is_accepted_when_its_json_is_whole(
    fast_policy: RetryPolicy,
) -> None:
    from deepeval.models import LocalModel

    with OpenAIChatServer(
        lambda req: {"content": {"verdicts": [{"verdict": "no"}]}, "finish_reason": "length"}, api_key=KEY
    ) as srv:
        model = LocalModel(model="m", base_url=srv.base_url, api_key=KEY, retry_policy=fast_policy)
        got = asyncio.run(a_generate_structured(model, "judge", VerdictList))
        assert [v.verdict for v in got.verdicts] == ["no"] and srv.counters.requests == 1


def test_the_cut_reply_qwen_gave_is_named_not_repaired_into_invented_verdicts() -> None:
    # Qwen2.5-Coder-1.5B-Instruct through the GGUF judge (ContextualRelevancy, llm mode, 1 thread): asked to rewrite
    # a two-sentence document as statements, it went on inventing ("The Eiffel Tower was built by the French
    # government and the French people and ...") until the 512-token cap. json_repair closed the cut JSON into
    # verdicts, most of them for statements the document never made, and the metric scored them.
    from pathlib import Path

    from json_repair import repair_json

    from deepeval.metrics.contextual_relevancy.schema import ContextualRelevancyVerdicts
    from deepeval.models.structured import CutReply, coerce

    text = (Path(__file__).parent / "data" / "qwen_cr_cut_reply.txt").read_text(encoding="utf-8")
    assert len(repair_json(text, return_objects=True)["verdicts"]) == 10  # what the repair would make of it
    with pytest.raises(ValueError, match="cut off at the token cap after 512 tokens, before its JSON ended"):
        coerce(CutReply(text, 512), ContextualRelevancyVerdicts)


def test_a_reply_nested_too_deeply_is_not_called_unbalanced() -> None:
    """A balanced reply 5,000 levels deep was refused as "unbalanced brackets" (outside attack 5, L10)."""
    from deepeval.models.structured import json_spans

    with pytest.raises(ValueError, match="10,000 characters of JSON nested too deeply to read"):
        json_spans("[" * 5000 + "]" * 5000)


class _Scored(BaseModel):
    name: str
    score: float | None = None


class _Scores(BaseModel):
    items: list[_Scored]
    total: int


@pytest.mark.parametrize(
    ("reply", "where"),
    [
        ({"items": [], "total": True}, "total"),
        (
            {"items": [{"name": "a", "score": 0.5}, {"name": "b", "score": False}], "total": 2},
            r"items\[1\]\.score",
        ),
    ],
)
def test_json_true_or_false_is_no_number_in_any_schema(reply: dict, where: str) -> None:
    """pydantic reads JSON true / false as 1 / 0: a judge's '"score": true' became a score (outside attack 5, L15;
    first fixed in GEval's schema alone). The structured layer refuses it for every number field, nested too."""
    from deepeval.models.structured import coerce, validate_text

    with pytest.raises(ValueError, match=rf"{where}: the value must be a number, not true or false"):
        coerce(reply, _Scores)
    with pytest.raises(ValueError, match="not true or false"):
        validate_text(json.dumps(reply), _Scores)
    assert coerce({"items": [{"name": "a", "score": 1}], "total": 1}, _Scores).items[0].score == 1.0
