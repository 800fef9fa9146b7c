"""Wiki precision: claims are atomic, checked against the whole transcript; a stale value stated as current is a
hallucination; "weakly supported" has its own count."""

from __future__ import annotations

import asyncio

from deepeval.memory.artifact import MemoryArtifact
from deepeval.memory.judges import EmbeddedMemoryJudge
from deepeval.memory.scoring import precision_summary
from deepeval.models.embedded.grading import stale_values
from deepeval.test_case import Turn

TURNS = [
    Turn(role="user", content="Pepper weighed 18.4 kg at admission."),
    Turn(role="assistant", content="Noted, 18.4 kg."),
    Turn(role="user", content="The day vet is Dr. Tomasz Wieczorek and the night RVT is Jonah Pike."),
    Turn(role="assistant", content="Got it."),
    Turn(role="user", content="I just reweighed her: her weight is 17.9 kg, not 18.4 kg."),
    Turn(role="assistant", content="Updated to 17.9 kg."),
]


def _verify(claim: str) -> int:
    j = EmbeddedMemoryJudge()
    return asyncio.run(j.verify(claim, MemoryArtifact.from_turns(TURNS)))[0].score


def test_stale_value_stated_as_current_is_a_hallucination() -> None:
    assert _verify("Weight: 18.4 kg.") == 1
    assert _verify("Weight: 17.9 kg.") >= 4
    assert _verify("Weight now 17.9 kg (down from 18.4 kg).") >= 3


def test_stale_values_skips_values_the_claim_marks_as_old() -> None:
    passages = [t.content for t in TURNS]
    assert stale_values("Pepper weighs 18.4 kg", passages) == ["18.4 kg"]
    assert stale_values("Pepper weighs 17.9 kg, down from 18.4 kg", passages) == []


def test_labels_titles_and_abbreviations_are_not_unsupported_entities() -> None:
    assert _verify("Team: Day vet: Dr. Tomasz Wieczorek.") >= 4
    assert _verify("Team: RVT: Jonah Pike.") >= 4


def test_invented_name_is_a_hallucination() -> None:
    assert _verify("Pepper's regular vet is Dr. Hollis at Brookside Clinic.") == 1


def test_multi_value_claim_is_split_into_atomic_claims() -> None:
    j = EmbeddedMemoryJudge()
    atoms = asyncio.run(
        j.claims(MemoryArtifact.from_wiki({"Team": "- Day vet: Dr. Tomasz Wieczorek; RVT: Jonah Pike."}))
    )
    assert len(atoms) == 2


def test_weakly_supported_is_counted_apart_from_hallucinations() -> None:
    p = precision_summary([5, 2, 2, 1])
    assert (p.n_hallucinations, p.n_weakly_supported) == (1, 2)
