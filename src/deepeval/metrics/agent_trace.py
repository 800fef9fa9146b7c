"""An agent's trace as the agent metrics hand it to a judge.

The trace is deepeval 4.3.1's nested span dict (``test_case._trace_dict``: ``name``, ``type``, ``input``,
``output``, tool calls, ``children``; :func:`deepeval.tracing.span_dict` builds it from our spans).
:func:`compact_trace` keeps what says whether the agent did its job (names, types, inputs, outputs, errors, models,
contexts, tool calls, children) as JSON values, and drops empty fields; :func:`trace_text` is its indented JSON for
prompts. Both walk the tree iteratively, in time linear in its spans, and show a span dict that contains itself as
``{"name": ..., "cycle": true}`` instead of recursing forever. A trace nested deeper than :data:`MAX_TRACE_DEPTH` is
refused with :class:`TraceTooDeepError` (the JSON the judges are sent is encoded recursively, per level).
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.base_errors import DeepEvalError

#: the span fields a judge sees, in this order
SPAN_KEYS = (
    "name",
    "type",
    "description",
    "input",
    "output",
    "error",
    "model",
    "retrieval_context",
    "context",
    "expected_output",
    "tools_called",
    "expected_tools",
    "available_tools",
    "agent_handoffs",
)


def _jsonable(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _entry(span: dict[str, Any]) -> dict[str, Any]:
    return {
        key: _jsonable(span[key])
        for key in SPAN_KEYS
        if span.get(key) is not None and span.get(key) not in ([], "")
    }


class TraceTooDeepError(DeepEvalError, ValueError):
    """A trace nests spans deeper than :data:`MAX_TRACE_DEPTH` (the judges' JSON encoders recurse per level)."""


#: the deepest span nesting a judge is shown (root = 1); real agent traces nest a few dozen levels at most
MAX_TRACE_DEPTH = 200


def compact_trace(trace: Any) -> Any:
    """The judge's view of ``trace`` (anything that is not a dict is returned as is), in one iterative pass.

    Raises:
        TraceTooDeepError: spans nested deeper than :data:`MAX_TRACE_DEPTH`.
    """
    if not isinstance(trace, dict):
        return trace
    root = _entry(trace)
    on_path: set[int] = set()  # the span objects from the root to the span being expanded
    # (span, its entry, depth); a span of None closes the span of that id on the path
    stack: list[tuple[dict[str, Any] | None, Any, int]] = [(trace, root, 1)]
    while stack:
        span, entry, depth = stack.pop()
        if span is None:
            on_path.discard(entry)
            continue
        if depth > MAX_TRACE_DEPTH:
            raise TraceTooDeepError(
                f"the trace nests spans more than {MAX_TRACE_DEPTH} deep (span {str(span.get('name', 'unnamed'))!r} "
                f"is at depth {depth}); the agent metrics read traces up to {MAX_TRACE_DEPTH} levels deep"
            )
        children = span.get("children")
        if not isinstance(children, list):
            continue
        on_path.add(id(span))
        stack.append((None, id(span), depth))
        kept = []
        below: list[tuple[dict[str, Any] | None, Any, int]] = []
        for child in children:
            if not isinstance(child, dict):
                continue
            if id(child) in on_path:
                kept.append({"name": str(child.get("name", "unnamed")), "cycle": True})
                continue
            child_entry = _entry(child)
            kept.append(child_entry)
            below.append((child, child_entry, depth + 1))
        stack.extend(reversed(below))
        if kept:
            entry["children"] = kept
    return root


def trace_text(trace: Any) -> str:
    """:func:`compact_trace` as indented JSON."""
    return json.dumps(compact_trace(trace), indent=2, ensure_ascii=False, default=str)


def tools_text(tools: Any) -> str:
    """Tool calls (``ToolCall`` objects or dicts) as an indented JSON array; ``[]`` for none."""
    return json.dumps(_jsonable(list(tools or [])), indent=2, ensure_ascii=False, default=str)


def tools_json(tools: Any) -> list[Any]:
    """Tool calls as JSON values (for a System One state)."""
    value = _jsonable(list(tools or []))
    return value if isinstance(value, list) else []


def trace_of(test_case: Any) -> dict[str, Any] | None:
    """The test case's trace (``_trace_dict``) when it has one."""
    trace = getattr(test_case, "_trace_dict", None)
    return trace if isinstance(trace, dict) else None


def run_text(test_case: Any) -> str:
    """The run as a judge reads it: :func:`trace_text` of the trace, or without one a stand-in span with the input,
    the final output and the tools called (deepeval 4.3.1 hands its prompts the JSON ``null`` then)."""
    trace = trace_of(test_case)
    if trace is not None:
        return trace_text(trace)
    stand_in = {
        "name": "agent",
        "input": test_case.input,
        "output": test_case.actual_output,
        "tools_called": test_case.tools_called,
    }
    return trace_text(stand_in)


def exchanges(turns: Any) -> list[list[Any]]:
    """A conversation's turns cut into user -> assistant exchanges (deepeval 4.3.1's unit interactions): a new
    exchange starts at a user turn that follows an assistant turn; the last one is kept only when an assistant turn
    ends it."""
    units: list[list[Any]] = []
    current: list[Any] = []
    seen_user = False
    for turn in turns:
        if current and current[-1].role == "assistant" and turn.role == "user" and seen_user:
            units.append(current)
            current = [turn]
            continue
        current.append(turn)
        seen_user = seen_user or turn.role == "user"
    if len(current) > 1 and current[-1].role == "assistant" and seen_user:
        units.append(current)
    return units


def primitive_state(primitive: Any) -> Any:
    """One MCP primitive (a server's tool, resource or prompt, or a call of one) as JSON data."""
    dump = getattr(primitive, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    if isinstance(primitive, dict):
        return json.loads(json.dumps(primitive, default=str))
    return str(primitive)
