"""The three loop signals over a nested span dict (``name``, ``type``, ``input``, ``output``, ``children``: the shape
of deepeval 4.3.1's ``_trace_dict``, which :func:`deepeval.tracing.span_dict` builds from our spans), as pure
functions with deepeval 4.3.1's thresholds and weights (checked by running it: ``bench/agents_parity.py``).

* **tool repetition** (weight 0.40): tool spans counted by (name, arguments) (a JSON-text input is parsed; dict
  arguments compared key by key as text); the most repeated call scores 0.5 at ``repetition_threshold`` calls and
  0.0 at twice that.
* **reasoning stagnation** (weight 0.35): each pair of consecutive LLM-span text outputs, with stop words and words
  of 1-2 letters dropped and pairs under 20 remaining words skipped, compared by the larger of bigram Jaccard and
  difflib's ratio; at ``similarity_threshold`` or above it scores 0.5, above 0.95 0.0.
* **call-graph cycles** (weight 0.25): a span whose ``type:name:input`` (the input's first 64 characters, a dict as
  sorted JSON) equals one of its ancestors' scores 0.0.

The score is the weighted mean of the signals checked (1.0 when none is). Traversal is iterative and visits each
span object once, so a deep trace cannot overflow the stack and a span dict that contains itself (a cyclic object
graph, which 4.3.1 recurses into forever) counts as a cycle instead of hanging.
"""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Any

#: the weight of each signal in the combined score
WEIGHTS = {"tool_repetition": 0.40, "reasoning_stagnation": 0.35, "call_graph_cycles": 0.25}
#: pairs of LLM outputs with fewer meaningful words than this are not compared
MIN_WORDS = 20
#: similarity above this is identical reasoning (score 0.0) rather than high overlap (0.5)
IDENTICAL = 0.95
#: characters of a span's input that enter its identity in the cycle check
INPUT_CHARS = 64

# Words that carry no reasoning content (and agent boilerplate), dropped before comparing outputs: the list 4.3.1
# uses, so that similarities agree.
STOP_WORDS = frozenset(
    """the a an is are was were i will now based on information provided to of in and that this with for it my next
    step going so do be have has not but as or from at by about above below up its let""".split()
)


def _children(span: dict[str, Any]) -> list[Any]:
    children = span.get("children") or []
    return [c for c in children if isinstance(c, dict) and c] if isinstance(children, list) else []


def all_spans(root: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every span of the tree, parents before children, children in order; each span object once."""
    if not root:
        return []
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        span = stack.pop()
        if id(span) in seen:
            continue
        seen.add(id(span))
        out.append(span)
        stack.extend(reversed(_children(span)))
    return out


def _arguments(value: Any) -> tuple[str, ...] | tuple[tuple[str, str], ...]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            pass
    if isinstance(value, dict):
        return tuple(sorted((str(k), str(v)) for k, v in value.items()))
    return (str(value),)


def tool_repetition(tool_spans: list[dict[str, Any]], repeat_limit: int) -> tuple[float, str]:
    if not tool_spans:
        return 1.0, "No tool spans found."
    counts: dict[tuple[str, Any], int] = {}
    for span in tool_spans:
        key = (str(span.get("name", "")), _arguments(span.get("input", {})))
        counts[key] = counts.get(key, 0) + 1
    (name, _), count = max(counts.items(), key=lambda item: item[1])  # the first of the most repeated
    if count >= repeat_limit * 2:
        return 0.0, f"Tool '{name}' was called {count} times with the same arguments."
    if count >= repeat_limit:
        return 0.5, f"Tool '{name}' was called {count} times with the same arguments."
    return 1.0, "No tool call is repeated often enough to be a loop."


def _words(text: str) -> list[str]:
    return [w for w in text.lower().split() if w not in STOP_WORDS and len(w) > 2]


def _bigram_jaccard(a: list[str], b: list[str]) -> float:
    if len(a) < 2 or len(b) < 2:
        return 0.0
    x, y = set(pairwise(a)), set(pairwise(b))
    union = x | y
    return len(x & y) / len(union) if union else 0.0


def similarity(a: str, b: str) -> float | None:
    """How alike two reasoning outputs are (see module docstring); None when either is too short to compare."""
    wa, wb = _words(a), _words(b)
    if len(wa) < MIN_WORDS or len(wb) < MIN_WORDS:
        return None
    return max(_bigram_jaccard(wa, wb), SequenceMatcher(None, " ".join(wa), " ".join(wb)).ratio())


def reasoning_stagnation(llm_spans: list[dict[str, Any]], similar_at: float) -> tuple[float, str]:
    if len(llm_spans) < 2:
        return 1.0, "Fewer than two LLM spans: nothing to compare for stagnation."
    best, pair = 0.0, (-1, -1)
    for i in range(len(llm_spans) - 1):
        a, b = llm_spans[i].get("output", ""), llm_spans[i + 1].get("output", "")
        if not isinstance(a, str) or not isinstance(b, str):
            continue
        value = similarity(a, b)
        if value is not None and value > best:
            best, pair = value, (i, i + 1)
    if best >= similar_at:
        if best > IDENTICAL:
            return 0.0, f"LLM steps {pair[0]} and {pair[1]} produced the same reasoning."
        return 0.5, f"LLM steps {pair[0]} and {pair[1]} overlap heavily (similarity {best:.2f})."
    return 1.0, "No reasoning stagnation."


def _identity(span: dict[str, Any]) -> tuple[str, str, str]:
    raw = span.get("input", "")
    if isinstance(raw, dict):
        try:
            raw = json.dumps(raw, sort_keys=True)
        except (TypeError, ValueError):
            raw = str(raw)
    return str(span.get("type", "unknown")), str(span.get("name", "unnamed")), str(raw)[:INPUT_CHARS]


def call_graph_cycle(root: dict[str, Any] | None) -> tuple[float, str]:
    """0.0 at the first span (depth first, in child order) that is one of its ancestors' objects or repeats an
    ancestor's identity; 1.0 when none does. One iterative pass: the path from the root is kept with its objects and
    identities indexed (entered on the way down, dropped on the way back up), so a deep trace costs time linear in
    its spans."""
    if not root:
        return 1.0, "No call graph cycles detected."
    path: list[dict[str, Any]] = []
    at_object: dict[int, int] = {}  # id(span on the path) -> its index in path
    at_identity: dict[tuple[str, str, str], int] = {}  # identity on the path -> its index (unique: see below)
    identities: list[tuple[str, str, str]] = []
    stack: list[tuple[dict[str, Any], bool]] = [(root, False)]
    while stack:
        span, leaving = stack.pop()
        if leaving:
            path.pop()
            del at_object[id(span)]
            del at_identity[identities.pop()]
            continue
        if id(span) in at_object:  # the dict contains itself: a cyclic object graph
            return 0.0, _cycle_text(
                [*path[at_object[id(span)] :], span], "the trace's span objects form a cycle"
            )
        identity = _identity(span)
        if identity in at_identity:  # found at once, so no identity is ever on the path twice
            return 0.0, _cycle_text(
                [*path[at_identity[identity] :], span], "a span repeats an ancestor with the same input"
            )
        at_object[id(span)] = at_identity[identity] = len(path)
        path.append(span)
        identities.append(identity)
        stack.append((span, True))
        stack.extend((child, False) for child in reversed(_children(span)))
    return 1.0, "No execution cycles detected."


def _cycle_text(path: list[dict[str, Any]], what: str) -> str:
    shown = " -> ".join(":".join(_identity(s)[:2]) for s in path)
    return f"Cycle in the execution path ({what}): {shown}."


def combine(scores: dict[str, float], checked: dict[str, bool]) -> float:
    weight = sum(WEIGHTS[k] for k in WEIGHTS if checked[k])
    if weight == 0.0:
        return 1.0
    return sum(scores[k] * WEIGHTS[k] for k in WEIGHTS if checked[k]) / weight
