"""The model under test (``EndpointChatModel``) goes through the judges' OpenAI-compatible client: its key is a
``Secret`` shown nowhere, the base URL's credentials are split off and redacted, failures are retried by the shared
policy and come back as ``JudgeError``. Against a loopback server."""

from __future__ import annotations

import asyncio

import pytest

from deepeval.errors import ErrorKind, JudgeError
from deepeval.memory.subjects import EndpointChatModel, EndpointWikiKeeper
from deepeval.memory.wiki import Wiki
from deepeval.test_case import Turn
from deepeval.testing.servers import Fault, OpenAIChatServer

KEY = "sk-subject-SECRET-0123456789"


def test_a_server_error_is_retried_and_the_key_is_sent_but_never_shown() -> None:
    with OpenAIChatServer(lambda body: "PostgreSQL 16", faults=[Fault.server_error(503)]) as srv:
        model = EndpointChatModel(srv.base_url, "bot", api_key=KEY, temperature=0.3)
        assert asyncio.run(model.chat([{"role": "user", "content": "Which database?"}])) == "PostgreSQL 16"
        assert srv.counters.requests == 2  # the 503, then its retry
        assert srv.counters.authorization == [f"Bearer {KEY}"] * 2
        body = srv.counters.bodies[-1]
        assert (body["model"], body["temperature"], body["messages"][0]["content"]) == (
            "bot",
            0.3,
            "Which database?",
        )
    assert KEY not in repr(model) and KEY not in str(vars(model)) and KEY not in str(vars(model.endpoint))


def test_credentials_in_the_base_url_are_sent_apart_and_hidden() -> None:
    with OpenAIChatServer(lambda body: "ok") as srv:
        port = srv.port
        url = f"http://user:pw-hidden-4242@127.0.0.1:{port}/v1?token=tok-hidden-1717"
        model = EndpointChatModel(url, "bot")
        assert asyncio.run(model.chat([{"role": "user", "content": "hi"}])) == "ok"
        assert srv.counters.targets == ["/v1/chat/completions?token=tok-hidden-1717"]
    assert repr(model) == f"EndpointChatModel(base_url='http://127.0.0.1:{port}/v1', model='bot')"


def test_a_failure_is_a_judge_error_with_its_kind_and_no_secret() -> None:
    deny = {"error": {"message": f"Incorrect API key provided: {KEY}"}}
    with OpenAIChatServer(faults=[Fault.http_status(401, deny)]) as srv:
        model = EndpointChatModel(srv.base_url, "bot", api_key=KEY)
        with pytest.raises(JudgeError) as info:
            asyncio.run(model.chat([{"role": "user", "content": "hi"}]))
        assert srv.counters.requests == 1  # an auth failure is not retried
    assert info.value.kind == ErrorKind.auth and KEY not in str(info.value)


def test_the_wiki_keeper_reads_tool_calls_from_the_reply_message() -> None:
    def keeper(body: dict) -> object:
        if body["messages"][-1]["role"] == "tool":
            return "done"
        return {"tool_calls": [{"name": "wiki_write_page", "arguments": {"name": "Notes", "content": "- db: PG"}},
                               {"name": "no_such_tool", "arguments": "{}"}]}  # fmt: skip

    with OpenAIChatServer(keeper) as srv:
        endpoint_keeper = EndpointWikiKeeper(EndpointChatModel(srv.base_url, "keeper"), max_steps=3)
        wiki = Wiki()
        asyncio.run(endpoint_keeper.update([Turn(role="user", content="We use PG.")], wiki))
        answered = srv.counters.bodies[-1]["messages"]
    assert wiki.read("Notes") == "- db: PG"
    assert (endpoint_keeper.n_requests, endpoint_keeper.n_tool_calls) == (2, 2)
    assert [m["role"] for m in answered[-3:]] == ["assistant", "tool", "tool"]
    assert answered[-3]["tool_calls"][0]["id"] == answered[-2]["tool_call_id"]
    assert [t["result"] for t in endpoint_keeper.transcript] == ["ok", "error: unknown tool 'no_such_tool'"]
