"""Named evidence of knowledge attrition, and what each is worth: the per-turn KnowledgeRetention verdict of the
embedded judge, precision first.

A turn is judged as forgetting only on explicit evidence, each kind a named rule over the retention features
(:func:`deepeval.models.embedded.features.retention_features`):

- ``ignored_correction``: the turn uses a value the user's last message replaced ("4pm, not 2pm" -> "2pm");
- ``swapped_roles``: two stated entities in the opposite roles (origin / destination, sender / receiver);
- ``reask``: a question for a value a fact already gives, not echoing it;
- ``slot_conflict``: a statement gives another value for the slot a fact fills (the same counted noun with
  another number, a name in the same context: :func:`deepeval.models.embedded.features.slot_conflict`);
- ``broken_constraint``: a suggestion that includes what a stated constraint rules out;
- ``date_conflict``: another month, day, weekday, time or year than the fact's, in the sentence closest to it;
- ``negated_fact``: the closest sentence negates the fact;
- ``name_conflict`` / ``number_conflict``: another name / number of the same unit than the fact's;
- ``none``: no explicit evidence: the turn keeps.

``P(attrition)`` is the share of forgetting turns among the turns whose strongest evidence (the first rule of the
list above that fires) was that rule, on the blind-dev KnowledgeRetention set (training/blind/kr/blind_dev.jsonl, 297 turns, written by
someone who saw only the label definitions), Laplace-smoothed: ``(forgets + 1) / (turns + 2)``; a rule seen there on
fewer than :data:`MIN_TURNS` turns gets 0.5 (no measure of its worth). So the probability says how far the evidence went on text nobody
here wrote: weak evidence (another number or name, on text with many numbers and names that are not the user's)
sits near 0.5 and reads as unsure, not as a confident "forgets". Recompute with ``python bench/kr_blind.py
training/blind/kr/blind_dev.jsonl --evidence`` after changing a rule; never on blind-test.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

Features = Mapping[str, float]


def _on(name: str, threshold: float = 0.5) -> Callable[[Features], bool]:
    return lambda f: f.get(name, 0.0) > threshold


#: rule name -> whether the features show it, in the order that picks a turn's strongest evidence (the most
#: explicit first; fixed, so that the blind-dev counts of each rule are well defined)
RULES: dict[str, Callable[[Features], bool]] = {
    "ignored_correction": _on("old_value_used"),
    "swapped_roles": _on("swapped"),
    "reask": lambda f: (
        f.get("reask_type", 0.0) > 0.5 or f.get("reask_qshare", 0.0) > 0.5 or f.get("reask_sim", 0.0) > 0.85
    ),
    "slot_conflict": _on("slot_conflict"),
    "broken_constraint": _on("constraint_violation"),
    "date_conflict": _on("date_conflict"),
    "negated_fact": _on("neg_conflict"),
    "name_conflict": _on("ent_conflict"),
    "number_conflict": _on("num_conflict"),
}

#: A rule seen on fewer blind-dev turns than this has no measured worth: 0.5 (borderline, counts as forgetting).
MIN_TURNS = 3

#: Below this many blind-dev turns a rule's worth is shrunk towards the fitted model's probability (see :func:`worth`).
PRIOR_TURNS = 10

#: (forgets, turns) per strongest evidence on blind-dev (bench/kr_blind.py --evidence)
DEV_COUNTS: dict[str, tuple[int, int]] = {
    "ignored_correction": (0, 0),
    "swapped_roles": (3, 3),
    "reask": (13, 14),
    "broken_constraint": (2, 5),
    "slot_conflict": (25, 36),
    "date_conflict": (11, 15),
    "negated_fact": (9, 16),
    "name_conflict": (23, 50),
    "number_conflict": (25, 54),
    "none": (40, 104),
}


def worth(rule: str, fitted: float | None = None) -> float:
    """``P(attrition)`` of a turn whose strongest evidence is ``rule`` (see the module docstring). A rule seen on
    fewer than :data:`PRIOR_TURNS` blind-dev turns has a noisy worth: it is shrunk towards ``fitted`` (the
    in-distribution model's probability for this turn, when given) with the weight of :data:`PRIOR_TURNS` turns, so
    five blind turns do not overrule a clear, explicit conflict (a peanut dish offered after a peanut allergy)."""
    forgets, turns = DEV_COUNTS.get(rule, (0, 0))
    measured = 0.5 if turns < MIN_TURNS else (forgets + 1) / (turns + 2)
    if fitted is None or rule == "none" or turns >= PRIOR_TURNS:
        return measured
    known = turns if turns >= MIN_TURNS else 0
    return (known * measured + (PRIOR_TURNS - known) * fitted) / PRIOR_TURNS


def shown(feats: Features) -> list[str]:
    """The rules ``feats`` show, strongest first (``["none"]`` when none)."""
    return [name for name, test in RULES.items() if test(feats)] or ["none"]


def attrition(feats: Features, fitted: float | None = None) -> tuple[str, float]:
    """``(strongest rule, P(attrition))`` for one turn's features; ``fitted`` as in :func:`worth`."""
    rule = shown(feats)[0]
    return rule, worth(rule, fitted)
