"""Named evidence of knowledge attrition, and what each is worth: the per-turn KnowledgeRetention verdict of the
embedded judge, precision first.

A turn is judged as forgetting only on explicit evidence, each kind a named rule over the retention features
(:func:`deepeval.models.embedded.features.retention_features`):

- ``ignored_correction``: the turn uses a value the user's last message replaced ("4pm, not 2pm" -> "2pm");
- ``swapped_roles``: two stated entities in the opposite roles (origin / destination, sender / receiver);
- ``reask``: a question for a value a fact already gives, not echoing it;
- ``broken_constraint``: a suggestion that includes what a stated constraint rules out;
- ``date_conflict``: another month, day, weekday, time or year than the fact's, in the sentence closest to it;
- ``negated_fact``: the closest sentence negates the fact;
- ``name_conflict`` / ``number_conflict``: another name / number of the same unit than the fact's;
- ``none``: no explicit evidence: the turn keeps.

``P(attrition)`` is the share of forgetting turns that showed that evidence (its strongest kind: the one with the
highest share) on the blind-dev KnowledgeRetention set (training/blind/kr/blind_dev.jsonl, 297 turns, written by
someone who saw only the label definitions), Laplace-smoothed: ``(forgets + 1) / (turns + 2)``; a rule that never
fired there gets 0.5 (no evidence of its worth). So the probability says how far the evidence went on text nobody
here wrote: weak evidence (another number or name, on text with many numbers and names that are not the user's)
sits near 0.5 and reads as unsure, not as a confident "forgets". Recompute with ``python bench/kr_blind.py
training/blind/kr/blind_dev.jsonl --evidence`` after changing a rule; never on blind-test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

Features = Mapping[str, float]


def _on(name: str, threshold: float = 0.5) -> Callable[[Features], bool]:
    return lambda f: f.get(name, 0.0) > threshold


#: rule name -> whether the features show it
RULES: dict[str, Callable[[Features], bool]] = {
    "ignored_correction": _on("old_value_used"),
    "swapped_roles": _on("swapped"),
    "reask": lambda f: (
        f.get("reask_type", 0.0) > 0.5 or f.get("reask_qshare", 0.0) > 0.5 or f.get("reask_sim", 0.0) > 0.85
    ),
    "broken_constraint": _on("constraint_violation"),
    "date_conflict": _on("date_conflict"),
    "negated_fact": _on("neg_conflict"),
    "name_conflict": _on("ent_conflict"),
    "number_conflict": _on("num_conflict"),
}

#: (forgets, turns) per strongest evidence on blind-dev (bench/kr_blind.py --evidence)
DEV_COUNTS: dict[str, tuple[int, int]] = {
    "ignored_correction": (0, 0),
    "swapped_roles": (3, 3),
    "reask": (13, 14),
    "broken_constraint": (3, 6),
    "date_conflict": (29, 41),
    "negated_fact": (9, 16),
    "name_conflict": (14, 31),
    "number_conflict": (40, 81),
    "none": (40, 105),
}


def worth(rule: str) -> float:
    """``P(attrition)`` of a turn whose strongest evidence is ``rule`` (see the module docstring)."""
    forgets, turns = DEV_COUNTS.get(rule, (0, 0))
    return (forgets + 1) / (turns + 2)


def shown(feats: Features) -> list[str]:
    """The rules ``feats`` show, strongest first (``["none"]`` when none)."""
    hits = [name for name, test in RULES.items() if test(feats)]
    return sorted(hits, key=worth, reverse=True) or ["none"]


def attrition(feats: Features) -> tuple[str, float]:
    """``(strongest rule, P(attrition))`` for one turn's features."""
    rule = shown(feats)[0]
    return rule, worth(rule)
