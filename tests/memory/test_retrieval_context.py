"""Offline retrieval reads a line in the context of its conversation and answers with the passage that states the
asked value; the package's one sentence splitter keeps titles inside sentences."""

from __future__ import annotations

import asyncio

from deepeval.memory.artifact import MemoryArtifact, _sentences
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.retrieval import NOT_IN_MEMORY
from deepeval.test_case import Turn

TURNS = [
    Turn(role="user", content="I'm planning the Halden bus network redesign with you today."),
    Turn(role="assistant", content="Great. What is the fleet size?"),
    Turn(role="user", content="We have 184 buses in total."),
    Turn(role="assistant", content="Noted, 184 buses. What's the diagnosis for the depot roof?"),
    Turn(role="user", content="Water damage near the north gutter."),
    Turn(role="assistant", content="Understood."),
]


def _answer(question: str, art: MemoryArtifact) -> str:
    return asyncio.run(EmbeddedMemoryJudge().answer(question, art)).answer


def test_entity_named_earlier_in_the_conversation_counts_as_present() -> None:
    ans = _answer("How many buses does the Halden redesign have?", MemoryArtifact.from_turns(TURNS))
    assert "184" in ans


def test_short_answer_is_read_with_the_question_before_it() -> None:
    ans = _answer("What is the diagnosis for the depot roof?", MemoryArtifact.from_turns(TURNS))
    assert "Water damage" in ans


def test_entity_never_named_anywhere_abstains() -> None:
    assert (
        _answer("How many buses does the Ostrava tram have?", MemoryArtifact.from_turns(TURNS))
        == NOT_IN_MEMORY
    )


def test_page_title_gives_the_entity_of_a_wiki_line() -> None:
    art = MemoryArtifact.from_wiki(
        {"Pepper": "- Weight: 17.9 kg.\n- Kennel K4.", "Team": "- Day vet: Dr. Lee."}
    )
    assert "17.9" in _answer("What is Pepper's weight?", art)


def test_question_asking_a_value_abstains_when_no_passage_states_one() -> None:
    art = MemoryArtifact.from_text("The patient is called Pepper. Pepper is a Border Collie.")
    assert _answer("How many kilograms does Pepper weigh?", art) == NOT_IN_MEMORY


def test_sentences_do_not_break_at_titles_and_abbreviations() -> None:
    got = _sentences(
        "The on-call registrar is Dr. Amara Oduya. Mrs. Lee called, e.g. about fees etc. and left."
    )
    assert got == [
        "The on-call registrar is Dr. Amara Oduya.",
        "Mrs. Lee called, e.g. about fees etc. and left.",
    ]
