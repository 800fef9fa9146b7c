"""Whole-metric answers (system_one mode) composed from the per-item scorers over a deterministic extraction of the
raw test case.

Composition rules (ours; documented so results can be read):

- "every item is relevant" / "no turn forgets": the probability of the weakest item, ``min_i p_i`` (or
  ``1 - max_i p_i``). Item errors of one judge are strongly correlated, so the independent product would punish long
  outputs; the minimum is the probability that the least convincing item passes.
- "the output addresses the input": ``max_i p_i`` over the output's statements.
- share levels (none / under half / most / all): the exact distribution of the number of relevant items under
  independence (Poisson-binomial, computed by dynamic programming), folded into the levels; the expected level is
  the score and the confidence is ``(p_max - 1/n) / (1 - 1/n)`` of that distribution.
- retention level (forgets most / forgets several / forgets one minor / keeps every fact): the Poisson-binomial
  distribution of the number ``k`` of attrition turns out of ``n`` checked turns: ``k = 0`` -> keeps every fact,
  ``k = 1`` -> one, ``k >= 2`` and ``k < n / 2`` -> several, else most.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from deepeval.models.embedded import features, scorers
from deepeval.models.embedded.extraction import DeterministicExtractor

_EXTRACTOR = DeterministicExtractor()


def poisson_binomial(ps: Sequence[float]) -> list[float]:
    """P(exactly k successes), k = 0..n, for independent events with probabilities ``ps``."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1.0 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def share_levels(ps: Sequence[float]) -> list[float]:
    """4-level distribution none / under half / most (>= half, not all) / all of the relevant-item count."""
    n = len(ps)
    levels = [0.0, 0.0, 0.0, 0.0]
    for k, q in enumerate(poisson_binomial(ps)):
        if k == 0:
            levels[0] += q
        elif k == n:
            levels[3] += q
        elif k / n < 0.5:
            levels[1] += q
        else:
            levels[2] += q
    return levels


def retention_levels(attrition: Sequence[float]) -> list[float]:
    """4-level distribution forgets most / several / one minor / none from per-turn attrition probabilities."""
    n = len(attrition)
    levels = [0.0, 0.0, 0.0, 0.0]
    for k, q in enumerate(poisson_binomial(attrition)):
        if k == 0:
            levels[3] += q
        elif k == 1:
            levels[2] += q
        elif k < n / 2:
            levels[1] += q
        else:
            levels[0] += q
    return levels


def _get(fields: dict[str, Any], *names: str) -> Any:
    for n in names:
        if n in fields and fields[n] is not None:
            return fields[n]
    return None


def context_texts(raw: Any) -> list[str]:
    """Retrieval-context nodes as texts (``"<source>: <context>"`` for ``{"context", "source"}`` dicts)."""
    out: list[str] = []
    for node in raw or []:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            ctx, src = node.get("context", ""), node.get("source")
            out.append(f"{src}: {ctx}" if src else str(ctx))
        else:
            out.append(str(node))
    return out


def answer_relevancy(fields: dict[str, Any]) -> dict[str, Any]:
    """``{"probabilities": [p per statement], "statements": [...]}`` for input vs actual_output."""
    question = str(_get(fields, "input") or "")
    output = str(_get(fields, "actual_output", "actualOutput") or "")
    statements = _EXTRACTOR.statements_sync(output)
    answer = "\n".join(statements)
    ps = [scorers.statement_relevant(question, s, answer) for s in statements]
    return {"statements": statements, "probabilities": ps}


def contextual_relevancy(fields: dict[str, Any]) -> dict[str, Any]:
    """Per-statement and per-node relevance for input vs retrieval_context."""
    question = str(_get(fields, "input") or "")
    nodes = context_texts(_get(fields, "retrieval_context", "retrievalContext"))
    per_node = [(node, s) for node in nodes for s in _EXTRACTOR.statements_sync(node)]
    context = "\n".join(
        nodes
    )  # a statement is ranked among all retrieved sentences, as in the hybrid request
    return {
        "statements": [s for _, s in per_node],
        "probabilities": [scorers.context_statement_relevant(question, s, n, context) for n, s in per_node],
        "node_probabilities": [scorers.node_relevant(question, n) for n in nodes if n.strip()],
    }


def retention_turns(fields: dict[str, Any]) -> list[tuple[int, dict[str, float]]]:
    """``(turn index, {"forgets", "reasks", "attrition"})`` per checked assistant turn. A turn is checked when the
    user has stated at least one fact before it (after corrections)."""
    turns_raw = _get(fields, "turns") or []
    turns: list[tuple[str, str]] = []
    for t in turns_raw:
        if isinstance(t, dict):
            turns.append((str(t.get("role", "")), str(t.get("content", ""))))
        else:
            turns.append((str(getattr(t, "role", "")), str(getattr(t, "content", ""))))
    features.prefetch_retention(turns)
    checks: list[tuple[int, list[str], str, str | None]] = []
    facts: list[str] = []
    for i, (role, content) in enumerate(turns):
        if role == "user":
            facts = _EXTRACTOR.known_facts([(role, content)], facts)
        elif role == "assistant" and facts:
            user_message = turns[i - 1][1] if i and turns[i - 1][0] == "user" else None
            checks.append((i, facts, content, user_message))
    return [(i, scorers.turn_probabilities(f, msg, user)) for i, f, msg, user in checks]


def knowledge_retention(fields: dict[str, Any]) -> list[dict[str, float]]:
    """Per checked assistant turn (see :func:`retention_turns`): ``{"forgets", "reasks", "attrition"}``."""
    return [probs for _, probs in retention_turns(fields)]


def weakest(ps: Sequence[float], empty: float) -> float:
    """``min(ps)``, or ``empty`` when there are no items."""
    return min(ps) if ps else empty


def strongest(ps: Sequence[float], empty: float) -> float:
    """``max(ps)``, or ``empty`` when there are no items."""
    return max(ps) if ps else empty


Composer = Callable[[dict[str, Any]], Any]
