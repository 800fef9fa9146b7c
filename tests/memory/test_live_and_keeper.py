"""Live mode (the model writes the assistant turns), keeper warnings and progress hooks of the memory runs, against
a loopback OpenAI-compatible server speaking the real wire format (tool calls included)."""

from __future__ import annotations

import asyncio
import json

import pytest
from _memory_models import PROBE_PREFIX, chatbot, tool_names

from deepeval.memory.conditions import check_live_facts, live_conversation, run_long_term, run_short_term
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.manifest import FactManifest
from deepeval.memory.subjects import EndpointChatModel, EndpointWikiKeeper
from deepeval.test_case import Turn
from deepeval.testing.servers import OpenAIChatServer

JUDGE = EmbeddedMemoryJudge()


class Recorder:
    def __init__(self) -> None:
        self.stages: list[tuple[str, int]] = []
        self.advanced: dict[str, int] = {}

    def start(self, stage: str, total: int) -> None:
        self.stages.append((stage, total))
        self.advanced[stage] = 0

    def advance(self, n: int = 1) -> None:
        self.advanced[self.stages[-1][0]] += n


def test_live_short_term_replaces_assistant_turns_and_probes_the_live_context(
    manifest: FactManifest, conversation
) -> None:
    progress = Recorder()
    with OpenAIChatServer(chatbot(manifest)) as srv:
        model = EndpointChatModel(srv.base_url, "bot", temperature=0.3)
        r = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, model, judge=JUDGE,
                                       checkpoints=2, live=True, system_prompt="You are Harbor's assistant.",
                                       progress=progress))  # fmt: skip
        bodies = srv.counters.bodies
    assert r.live is True and r.transcript is not None and len(r.transcript) == 40
    assert [t["content"] for t in r.transcript if t["role"] == "assistant"] == [
        f"Reply {i}: noted." for i in range(1, 21)
    ]
    canned_users = [t.content for t in conversation.turns if t.role == "user"]
    assert [t["content"] for t in r.transcript if t["role"] == "user"] == canned_users
    # the 20 live replies come first, in order; reply n saw the system prompt and the 2n-1 turns before it
    live = bodies[:20]
    assert [len(b["messages"]) for b in live] == [2 * n for n in range(1, 21)]
    assert all(
        b["messages"][0] == {"role": "system", "content": "You are Harbor's assistant."} for b in bodies
    )
    assert live[1]["messages"][2] == {"role": "assistant", "content": "Reply 1: noted."}
    assert all(b["temperature"] == 0.3 for b in bodies)
    probes = bodies[20:]
    assert all(b["messages"][-1]["content"].startswith(PROBE_PREFIX) for b in probes)
    assert all("Got it, thanks" not in json.dumps(b["messages"]) for b in probes)  # canned replies are gone
    assert [c.turn for c in r.curve] == [19, 39]
    assert [c.recall.normalised for c in r.curve] == [1.0, 1.0]
    assert r.abstention.normalised == 1.0
    assert progress.stages == [("live conversation", 20), ("probing the model", len(probes))]
    assert progress.advanced == {"live conversation": 20, "probing the model": len(probes)}


def test_live_mode_refuses_facts_stated_by_the_assistant(manifest: FactManifest) -> None:
    turns = [Turn(role="user", content="Hi"), Turn(role="assistant", content="Alice Moreau owns auth.")]
    with pytest.raises(ValueError, match=r"auth_owner \(turn 1, assistant\)"):
        check_live_facts(turns, {"auth_owner": 1})
    check_live_facts(turns, {"auth_owner": 0, "later": 9})  # out-of-range positions are not checked
    with pytest.raises(ValueError, match="every fact must be stated in a user turn"):
        asyncio.run(run_short_term(manifest, turns, {"auth_owner": 1}, lambda _m: "x", judge=JUDGE,
                                   checkpoints=1, live=True))  # fmt: skip


def test_live_conversation_keeps_user_and_system_turns() -> None:
    turns = [Turn(role="user", content="a"), Turn(role="assistant", content="canned"),
             Turn(role="user", content="b"), Turn(role="user", content="c"), Turn(role="assistant", content="x")]  # fmt: skip
    seen: list[int] = []

    def model(messages: list[dict]) -> str:
        seen.append(len(messages))
        return f"live {len(seen)}"

    live = asyncio.run(live_conversation(turns, model, system_prompt="S"))
    assert [(t.role, t.content) for t in live] == [("user", "a"), ("assistant", "live 1"), ("user", "b"),
                                                  ("user", "c"), ("assistant", "live 2")]  # fmt: skip
    assert seen == [2, 5]  # system + the turns before each assistant position


def test_live_long_term_keeper_records_the_live_conversation(manifest: FactManifest, conversation) -> None:
    progress = Recorder()
    with OpenAIChatServer(chatbot(manifest)) as srv:
        model = EndpointChatModel(srv.base_url, "bot")
        keeper = EndpointWikiKeeper(model, max_steps=3)
        r = asyncio.run(run_long_term(manifest, conversation.turns, conversation.introduced, keeper, judge=JUDGE,
                                      live=True, progress=progress))  # fmt: skip
        bodies = srv.counters.bodies
    tool_bodies = [b for b in bodies if b.get("tools")]
    assert tool_names(tool_bodies[0]) == ["wiki_list_pages", "wiki_read_page", "wiki_write_page",
                                          "wiki_append_to_page"]  # fmt: skip
    # every update shows the keeper the live reply, not the canned one
    first = tool_bodies[0]["messages"][1]["content"]
    assert "assistant: Reply 1: noted." in first and "Got it" not in first
    assert keeper.n_tool_calls == 20 and keeper.n_requests == 40  # one call + one closing reply per update
    assert r.tool_calls is not None and len(r.tool_calls) == 20 and r.tool_calls[0]["result"] == "ok"
    assert r.tool_calls[0]["arguments"] == {"name": "Notes", "content": f"- {conversation.turns[0].content}"}
    assert r.wiki_pages is not None and list(r.wiki_pages) == ["Notes"]
    assert r.wiki_pages["Notes"].count("\n- ") == 19
    assert r.recall.normalised == 1.0 and r.precision is not None and r.precision.hallucination_rate == 0.0
    assert r.warnings == []
    assert r.transcript is not None and r.transcript[1] == {"role": "assistant", "content": "Reply 1: noted."}
    stages = [s for s, _ in progress.stages]
    assert stages == ["live conversation", "keeping the wiki", "probing the memory", "extracting claims",
                      "verifying claims"]  # fmt: skip
    assert (
        dict(progress.stages)["keeping the wiki"] == 20 and dict(progress.stages)["probing the memory"] == 11
    )
    assert progress.advanced == dict(progress.stages)


def test_keeper_that_never_calls_a_tool_is_warned(manifest: FactManifest, conversation) -> None:
    with OpenAIChatServer(lambda body: "I will remember that.") as srv:
        model = EndpointChatModel(srv.base_url, "chatty")
        r = asyncio.run(
            run_long_term(manifest, conversation.turns, conversation.introduced, model, judge=JUDGE)
        )
    assert len(r.warnings) == 2
    assert r.warnings[0].startswith("the model never called a wiki tool in 20 requests")
    assert (
        r.warnings[1]
        == "the model never wrote a wiki page in 20 updates: recall is measured on an empty wiki"
    )
    assert r.wiki_pages == {} and r.recall.normalised == 0.0 and r.tool_calls == []


def test_keeper_whose_writes_are_all_refused_is_warned(manifest: FactManifest, conversation) -> None:
    def bad_names(body: dict) -> object:
        if body["messages"][-1]["role"] == "tool":
            return "done"
        return {
            "tool_calls": [{"name": "wiki_write_page", "arguments": {"name": "../etc/x", "content": "y"}}]
        }

    turns = conversation.turns[:8]
    early = {fid: i for fid, i in conversation.introduced.items() if i < 8}
    with OpenAIChatServer(bad_names) as srv:
        r = asyncio.run(run_long_term(manifest, turns, early, EndpointChatModel(srv.base_url, "m"),
                                      judge=JUDGE))  # fmt: skip
    assert r.warnings == [
        "the model never wrote a wiki page in 4 updates; 4 writes were refused: recall is measured on an empty wiki"
    ]
    assert r.tool_calls is not None and r.tool_calls[0]["result"].startswith("error: page name '../etc/x'")


def test_live_long_term_needs_a_chat_model(manifest: FactManifest, conversation) -> None:
    with pytest.raises(ValueError, match="live mode needs a chat model"):
        asyncio.run(run_long_term(manifest, conversation.turns, conversation.introduced,
                                  lambda turns, wiki: None, judge=JUDGE, live=True))  # fmt: skip


def test_concurrency_below_one_is_refused(manifest: FactManifest, conversation) -> None:
    with pytest.raises(ValueError, match="concurrency must be >= 1, got 0"):
        asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, lambda _m: "x",
                                   judge=JUDGE, concurrency=0))  # fmt: skip
