"""Names with Latin accents are whole names (an ASCII-only pattern cut "María" to "Mar", then read as March)."""

from __future__ import annotations

import pytest

from deepeval.models.embedded import features as ft
from deepeval.models.embedded.text import entities


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Prueba unos cacahuetes, María.", ["maría"]),
        ("My name is José García and I met Łukasz in Paris.", ["josé garcía", "łukasz", "paris"]),
        ("I met Anna Lee in Paris", ["anna lee", "paris"]),
        ("Zoë lives in Orléans.", ["zoë", "orléans"]),
    ],
)
def test_accented_names_are_whole(text: str, names: list[str]) -> None:
    assert entities(text) == names


def test_wrong_accented_name_is_a_name_conflict_and_the_right_one_is_not() -> None:
    facts = ["Me llamo Ana y soy alérgica a los cacahuetes."]
    assert ft.retention_features(facts, "Prueba unos cacahuetes, María.")["ent_conflict"] > 0.5
    assert ft.retention_features(facts, "Prueba unos cacahuetes, Ana.")["ent_conflict"] == 0.0
