"""How the embedded offline judge answers knowledge retention's whole-metric questions (system_one mode): every
assistant turn after a user fact (deterministic fact extraction, corrections applied) scored with the turn
scorers, composed by the rules of :mod:`deepeval.models.embedded.composite`."""

from __future__ import annotations

from typing import Any

from deepeval.metrics.knowledge_retention.names import NO_FORGETTING, NO_REASKING, RETENTION_LEVEL
from deepeval.models.embedded import composite, features, scorers
from deepeval.models.embedded.kind_spec import Asked, KindSpec


def retention_turns(fields: dict[str, Any]) -> list[tuple[int, dict[str, float]]]:
    """``(turn index, {"forgets", "reasks", "attrition"})`` per checked assistant turn. A turn is checked when the
    user has stated at least one fact before it (after corrections)."""
    turns: list[tuple[str, str]] = []
    for t in composite.field_value(fields, "turns") or []:
        if isinstance(t, dict):
            turns.append((str(t.get("role", "")), str(t.get("content", ""))))
        else:
            turns.append((str(getattr(t, "role", "")), str(getattr(t, "content", ""))))
    features.prefetch_retention(turns)
    checks: list[tuple[int, list[str], str, str | None]] = []
    facts: list[str] = []
    for i, (role, content) in enumerate(turns):
        if role == "user":
            facts = composite.EXTRACTOR.known_facts([(role, content)], facts)
        elif role == "assistant" and facts:
            user_message = turns[i - 1][1] if i and turns[i - 1][0] == "user" else None
            checks.append((i, facts, content, user_message))
    return [(i, scorers.turn_probabilities(f, msg, user)) for i, f, msg, user in checks]


def compose(fields: dict[str, Any]) -> list[dict[str, float]]:
    """Per checked assistant turn (see :func:`retention_turns`): ``{"forgets", "reasks", "attrition"}``."""
    return [probs for _, probs in retention_turns(fields)]


def _turns(a: Asked, key: str) -> list[float]:
    return [t[key] for t in a.composed("knowledge_retention", compose)]


def _levels(a: Asked) -> list[float]:
    return composite.retention_levels(_turns(a, "attrition"))


KINDS: dict[str, KindSpec] = {
    NO_FORGETTING: KindSpec(("turns",), lambda a: 1.0 - composite.strongest(_turns(a, "forgets"), empty=0.0)),
    NO_REASKING: KindSpec(("turns",), lambda a: 1.0 - composite.strongest(_turns(a, "reasks"), empty=0.0)),
    RETENTION_LEVEL: KindSpec(
        ("turns",), lambda a: sum(i * q for i, q in enumerate(_levels(a))) / 3.0, levels=_levels
    ),
}
