from __future__ import annotations

import asyncio

import pytest
from _memory_models import block

from deepeval.memory.generator import a_generate_conversation, check_coverage, generate_conversation
from deepeval.memory.manifest import FactManifest
from deepeval.models.base_model import DeepEvalBaseLLM
from deepeval.test_case import ConversationalTestCase, Turn


def test_deterministic_per_seed(manifest: FactManifest) -> None:
    a = generate_conversation(manifest, 40, seed=3)
    b = generate_conversation(manifest, 40, seed=3)
    c = generate_conversation(manifest, 40, seed=4)
    assert [t.content for t in a.turns] == [t.content for t in b.turns]
    assert [t.content for t in a.turns] != [t.content for t in c.turns]


def test_states_each_fact_once_and_in_order(manifest: FactManifest, conversation) -> None:
    turns = conversation.turns
    assert len(turns) == 40
    assert [t.role for t in turns[:4]] == ["user", "assistant", "user", "assistant"]
    ConversationalTestCase(turns=turns)  # compatible
    assert set(conversation.introduced) == {f.id for f in manifest.stated()}
    fact_turns = [t.metadata["fact_id"] for t in turns if t.metadata]
    assert sorted(fact_turns) == sorted(conversation.introduced)  # each stated fact exactly once
    assert conversation.introduced["budget_v1"] < conversation.introduced["budget_v2"]
    assert "$52,000" in turns[conversation.introduced["budget_v2"]].content
    assert not any("Series B" in t.content for t in turns)
    assert check_coverage(manifest, turns, conversation.introduced).ok


def test_coverage_reports_missing_and_leaked(manifest: FactManifest, conversation) -> None:
    turns = list(conversation.turns)
    i = conversation.introduced["vendor"]
    turns[i] = Turn(role="user", content="Let's pick an observability vendor later.")
    turns.append(Turn(role="user", content=manifest.get("series_b").statement))
    cov = check_coverage(manifest, turns, conversation.introduced)
    assert cov.missing == ["vendor"]
    assert cov.leaked == ["series_b"]


def test_too_few_turns(manifest: FactManifest) -> None:
    with pytest.raises(ValueError, match="need at least 22 turns"):
        generate_conversation(manifest, 20)
    with pytest.raises(ValueError, match="even number"):
        generate_conversation(manifest, 41)


class _Rewriter(DeepEvalBaseLLM):
    """Rewrites naturally except for one fact, whose rewrite drops the value (must fall back to the template)."""

    def load_model(self) -> None:
        return None

    def get_model_name(self) -> str:
        return "fake-rewriter"

    def generate(self, prompt: str, schema=None):  # type: ignore[no-untyped-def]
        fact = block(prompt, "FACT")
        if "Kestrel" in fact:
            return '{"message": "We picked some vendor for observability."}'
        return {"message": f"Hey, heads up: {fact}"}


def test_llm_rewrite_with_fallback(manifest: FactManifest) -> None:
    conv = asyncio.run(a_generate_conversation(manifest, 40, seed=1, llm=_Rewriter()))
    assert conv.generator == "fake-rewriter"
    assert conv.fallbacks == ["vendor"]
    assert conv.turns[conv.introduced["db_choice"]].content.startswith("Hey, heads up:")
    assert "Kestrel Systems" in conv.turns[conv.introduced["vendor"]].content
    assert check_coverage(manifest, conv.turns, conv.introduced).ok


def test_introduced_at_beyond_the_conversation_to_generate_is_an_error_naming_the_fact() -> None:
    from deepeval.memory.manifest import ManifestError, parse_manifest

    late = parse_manifest(
        [
            {"id": "dog", "statement": "My dog is Biscuit.", "question": "Dog's name?", "expected": "Biscuit"},
            {"id": "city", "statement": "I live in Porto.", "question": "City?", "expected": "Porto",
             "introduced_at": 30},
        ]
    )  # fmt: skip
    with pytest.raises(
        ManifestError,
        match=r"fact 'city': introduced_at 30 is beyond the conversation to generate \(n_turns=10\) \(10 turns: turns 0-9\)",
    ):
        generate_conversation(late, n_turns=10)
    conv = generate_conversation(late, n_turns=32)
    assert conv.introduced["city"] == 30  # inside the conversation it is honoured exactly
