from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

from _memory_loopback import Server

from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.conditions import (
    TranscriptReader,
    checkpoint_turns,
    evaluate_artifact,
    run_long_term,
    run_short_term,
)
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.manifest import FactManifest
from deepeval.memory.subjects import EndpointChatModel
from deepeval.memory.wiki import Wiki
from deepeval.test_case import Turn

JUDGE = EmbeddedMemoryJudge()

FAITHFUL = (
    "# Infrastructure\n- The team chose PostgreSQL 16 for the new ledger service.\n"
    "- Production will run in the Frankfurt region.\n- The monthly cloud budget was raised to $52,000.\n"
)
INVENTED = (
    "# Funding\n- Sequoia Capital led the company's Series B.\n- The company was founded in 2011 in Oslo.\n"
)


def test_transcript_control_recalls_everything(manifest: FactManifest, conversation) -> None:
    r = asyncio.run(evaluate_artifact(manifest, MemoryArtifact.from_turns(conversation.turns),
                                      introduced=conversation.introduced, judge=JUDGE))  # fmt: skip
    assert r.recall.n == 10  # 11 stated facts, budget_v1 superseded by budget_v2
    assert r.recall.normalised is not None and r.recall.normalised >= 0.9
    assert r.abstention.n == 1 and r.abstention.normalised == 1.0  # Series B: "not in memory"
    ci = r.recall.normalised_ci
    assert ci is not None and ci.low <= r.recall.normalised <= ci.high


def test_empty_memory_scores_zero(manifest: FactManifest, conversation) -> None:
    r = asyncio.run(evaluate_artifact(manifest, MemoryArtifact.empty(), introduced=conversation.introduced,
                                      judge=JUDGE))  # fmt: skip
    assert r.recall.normalised == 0.0
    assert r.recall.weighted == 0.2
    assert r.recall.strict == 0.0
    assert all(f.answer == "Not in memory." for f in r.facts)


def test_precision_catches_invented_claims(manifest: FactManifest, conversation) -> None:
    transcript = MemoryArtifact.from_turns(conversation.turns)
    wiki = MemoryArtifact.from_wiki({"Infrastructure": FAITHFUL, "Funding": INVENTED})
    r = asyncio.run(evaluate_artifact(manifest, wiki, transcript=transcript, introduced=conversation.introduced,
                                      judge=JUDGE))  # fmt: skip
    assert r.precision is not None
    flagged = {c.claim for c in r.hallucinations}
    assert any("Sequoia" in c for c in flagged) and any("Oslo" in c for c in flagged)
    assert not any("PostgreSQL" in c or "Frankfurt" in c or "52,000" in c for c in flagged)
    assert r.precision.n_claims == 5 and r.precision.n_hallucinations == 2
    assert r.precision.hallucination_rate == 0.4
    # the invented Series B claim also breaks abstention on the never-stated fact
    assert r.abstention.normalised == 0.0
    clean = asyncio.run(evaluate_artifact(manifest, MemoryArtifact.from_wiki({"Infrastructure": FAITHFUL}),
                                          transcript=transcript, judge=JUDGE))  # fmt: skip
    assert clean.precision is not None and clean.precision.hallucination_rate == 0.0
    assert clean.precision.precision is not None and clean.precision.precision >= 0.9


def test_stale_wiki_value_scores_two(manifest: FactManifest, conversation) -> None:
    wiki = MemoryArtifact.from_wiki({"Budget": "The monthly cloud budget is $40,000."})
    r = asyncio.run(evaluate_artifact(manifest, wiki, introduced=conversation.introduced, judge=JUDGE))
    budget = next(f for f in r.facts if f.fact_id == "budget_v2")
    assert budget.score == 2 and "superseded" in budget.reason


def test_checkpoints() -> None:
    assert checkpoint_turns(40, 4) == [9, 19, 29, 39]
    assert checkpoint_turns(40, 1) == [39]
    assert checkpoint_turns(10, [3, 9, 3]) == [3, 9]


def test_short_term_curve_controls(manifest: FactManifest, conversation) -> None:
    good = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, TranscriptReader(),
                                      judge=JUDGE, checkpoints=4))  # fmt: skip
    ns = [c.recall.n for c in good.curve]
    assert [c.turn for c in good.curve] == [9, 19, 29, 39]
    assert ns == sorted(ns) and ns[-1] == 10 and ns[0] < 10
    assert all(c.recall.normalised is not None and c.recall.normalised >= 0.9 for c in good.curve)
    for f in good.checkpoint_facts:  # only facts introduced by the checkpoint are probed
        assert f.kind == "never_stated" or conversation.introduced[f.fact_id] <= f.checkpoint
    bad = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced,
                                     TranscriptReader(forget=True), judge=JUDGE, checkpoints=2))  # fmt: skip
    assert [c.recall.normalised for c in bad.curve] == [0.0, 0.0]


def _note_taker(new_turns: Sequence[Turn], wiki: Wiki) -> None:
    for t in new_turns:
        if t.role == "user" and t.metadata:
            wiki.append("Notes", "- " + t.content.split(": ", 1)[-1].split(", ", 1)[-1])


def test_long_term_with_callable_keeper(manifest: FactManifest, conversation) -> None:
    r = asyncio.run(
        run_long_term(manifest, conversation.turns, conversation.introduced, _note_taker, judge=JUDGE)
    )
    assert r.condition == "long_term" and r.subject == "_note_taker"
    assert r.wiki_pages is not None and list(r.wiki_pages) == ["Notes"]
    assert r.recall.normalised is not None and r.recall.normalised >= 0.9
    assert r.precision is not None and r.precision.hallucination_rate == 0.0
    assert r.wiki_log is not None and len(r.wiki_log) == 11


def test_endpoint_model_short_term_and_wiki_keeper(manifest: FactManifest, conversation) -> None:
    def respond(body: dict) -> dict:
        if body.get("tools"):
            if body["messages"][-1]["role"] == "tool":
                return {"content": "done"}
            exchange = body["messages"][-1]["content"]
            if "PostgreSQL" in exchange:
                args = {
                    "name": "Infra",
                    "content": "The ledger uses PostgreSQL 16. It was bought by Oracle in 2019.",
                }
                return {"content": None, "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "wiki_append_to_page", "arguments": json.dumps(args)}}]}  # fmt: skip
            return {"content": "nothing to record"}
        question = body["messages"][-1]["content"]
        return {"content": "PostgreSQL 16" if "database" in question else "I don't know."}

    with Server(respond) as srv:
        model = EndpointChatModel(srv.base_url, "test-model", api_key="sk-secret-123")
        assert "sk-secret" not in repr(model)
        st = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, model, judge=JUDGE,
                                        checkpoints=1))  # fmt: skip
        db = next(f for f in st.facts if f.fact_id == "db_choice")
        assert db.score == 5 and db.answer == "PostgreSQL 16"
        assert st.recall.n == 10 and st.recall.strict == 0.1
        probe = srv.requests[0]["body"]
        assert probe["model"] == "test-model" and probe["messages"][0]["role"] == "system"
        assert len(probe["messages"]) == 40 + 2
        assert srv.requests[0]["auth"] == "Bearer sk-secret-123"
        lt = asyncio.run(
            run_long_term(manifest, conversation.turns, conversation.introduced, model, judge=JUDGE)
        )
    assert lt.wiki_pages == {"Infra": "The ledger uses PostgreSQL 16. It was bought by Oracle in 2019."}
    assert [c.claim.rstrip(".") for c in lt.hallucinations] == ["Infra: It was bought by Oracle in 2019"]
    assert next(f for f in lt.facts if f.fact_id == "db_choice").score == 5
    assert "sk-secret" not in json.dumps(lt.to_dict()) + json.dumps(st.to_dict())


def test_introduced_turn_beyond_the_transcript_is_an_error_naming_the_fact(
    manifest: FactManifest, conversation
) -> None:
    import pytest

    from deepeval.memory.manifest import ManifestError

    short = conversation.turns[:6]
    late = {**conversation.introduced}
    fact = next(f.id for f in manifest.stated() if late[f.id] >= 6)  # the first one beyond is named
    at = late[fact]
    match = rf"fact '{fact}': introduced turn {at} is beyond the transcript \(6 turns: turns 0-5\)"
    with pytest.raises(ManifestError, match=match):
        asyncio.run(
            evaluate_artifact(manifest, MemoryArtifact.from_turns(short), introduced=late, judge=JUDGE)
        )
    with pytest.raises(ManifestError, match=match):
        asyncio.run(run_short_term(manifest, short, late, lambda msgs: "Not in memory.", judge=JUDGE))
    with pytest.raises(ManifestError, match=match):
        asyncio.run(run_long_term(manifest, short, late, lambda turns, wiki: None, judge=JUDGE))


def test_introduced_turn_that_is_not_an_index_is_an_error_naming_the_fact(
    manifest: FactManifest, conversation
) -> None:
    import pytest

    from deepeval.memory.manifest import ManifestError

    fact = manifest.stated()[0].id
    odd = {**conversation.introduced, fact: "3"}
    with pytest.raises(ManifestError, match=rf"fact '{fact}': introduced turn '3' is not a turn index"):
        asyncio.run(
            evaluate_artifact(manifest, MemoryArtifact.from_turns(conversation.turns), introduced=odd)
        )


def test_a_megabyte_answer_is_graded_on_its_first_4000_characters(
    manifest: FactManifest, conversation
) -> None:
    """A model under test that answers each probe with 300 KB (a loop, a hostile endpoint) once took minutes per
    probe, the grader's time growing faster than the answer, with no signal acted on (outside attack 5, M7)."""
    huge = "Nothing to add here. " * 15_000
    r = asyncio.run(run_short_term(manifest, conversation.turns, conversation.introduced, lambda _m: huge,
                                   judge=JUDGE, checkpoints=1))  # fmt: skip
    facts = r.checkpoint_facts
    assert len(facts) == 11
    assert {len(f.answer) for f in facts} == {4000}
    assert all(f"first 4,000 of {len(huge):,} characters" in f.reason for f in facts)
    assert [f.score for f in facts if f.kind != "never_stated"] == [1] * 10
