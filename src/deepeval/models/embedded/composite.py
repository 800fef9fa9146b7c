"""Whole-metric answers (system_one mode) composed from the per-item scorers over a deterministic extraction of the
raw test case: the shared composition rules below; each metric's composer (which items, which scorer) is in its
folder's ``embedded.py``.

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

from deepeval.models.embedded.extraction import DeterministicExtractor

#: the deterministic extraction every whole-metric composer uses (statements, known facts)
EXTRACTOR = DeterministicExtractor()


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


def field_value(fields: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` that ``fields`` holds with a value (test-case fields arrive in snake or camel case)."""
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


def weakest(ps: Sequence[float], empty: float) -> float:
    """``min(ps)``, or ``empty`` when there are no items."""
    return min(ps) if ps else empty


def strongest(ps: Sequence[float], empty: float) -> float:
    """``max(ps)``, or ``empty`` when there are no items."""
    return max(ps) if ps else empty


Composer = Callable[[dict[str, Any]], Any]
