"""The tool-calling half of the reason, in deepeval 4.3.1's wording (users match on it: "Exact match", "Correct
ordering", "All expected tools ... were called", "Incomplete tool usage", "Incorrect tool usage").

**ours:** lists are in the order of the expected tools (4.3.1 lists them from a set, in an order that changes from
one process to the next), and a tool whose ``repr`` is longer than :data:`MAX_TOOL_TEXT` characters is cut there
(a huge argument blob would otherwise fill the reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from deepeval.test_case import ToolCall

#: longest ``repr`` of one tool kept in a reason
MAX_TOOL_TEXT = 500


def _names(tools: Sequence[ToolCall]) -> list[str]:
    return [t.name for t in tools]


T = TypeVar("T")


def _unique(items: Sequence[T]) -> list[T]:
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


class _Shown(str):
    """A tool's text as it appears inside a printed list (``repr`` of the list shows it unquoted)."""

    def __repr__(self) -> str:
        return str(self)


def _shown(tool: ToolCall) -> _Shown:
    text = repr(tool)
    if len(text) > MAX_TOOL_TEXT:
        text = f"{text[:MAX_TOOL_TEXT]}... ({len(text) - MAX_TOOL_TEXT} more characters)"
    return _Shown(text)


def exact_reason(
    matched: bool, called: Sequence[ToolCall], expected: Sequence[ToolCall], mismatches: list[str]
) -> str:
    head = "Exact match" if matched else "Not an exact match"
    text = f"{head}: expected {_names(expected)}, called {_names(called)}."
    if mismatches:
        text += f" Tool type mismatches: {mismatches}."
    return text + " See details above."


def ordered_reason(
    score: float,
    in_order: Sequence[ToolCall],
    called: Sequence[ToolCall],
    expected: Sequence[ToolCall],
    mismatches: list[str],
) -> str:
    expected_names = _names(expected)
    if score == 1:
        return f"Correct ordering: all expected tools {expected_names} were called in the correct order."
    called_names = set(_names(called))
    ordered_names = set(_names(in_order))
    missing = _unique([n for n in expected_names if n not in called_names])
    out_of_order = _unique([n for n in expected_names if n not in ordered_names])
    issues = []
    if missing:
        issues.append(f"missing tools {missing}")
    if out_of_order:
        issues.append(f"out-of-order tools {out_of_order}")
    if mismatches:
        issues.append(f"tool type mismatches {mismatches}")
    return (
        f"Incorrect tool usage: {' and '.join(issues)}; expected {expected_names}, called {_names(called)}. "
        "See more details above."
    )


def unordered_reason(
    score: float, called: Sequence[ToolCall], expected: Sequence[ToolCall], mismatches: list[str]
) -> str:
    expected_names = _names(expected)
    if score == 1:
        return f"All expected tools {expected_names} were called (order not considered)."
    # as 4.3.1: a tool counts as missing unless one called tool equals it (name, input parameters and output),
    # whatever evaluation_params compares
    missing = [_shown(t) for t in _unique([t for t in expected if t not in called])]
    issues = []
    if missing or not mismatches:
        issues.append(f"missing tools {missing}")
    if mismatches:
        issues.append(f"tool type mismatches {mismatches}")
    return (
        f"Incomplete tool usage: {'; '.join(issues)}; expected {expected_names}, called {_names(called)}. "
        "See more details above."
    )


def final_reason(tool_calling: str, tool_selection: str) -> str:
    """Both halves in 4.3.1's layout."""
    return f"[\n\t Tool Calling Reason: {tool_calling}\n\t Tool Selection Reason: {tool_selection}\n]\n"


NO_AVAILABLE_TOOLS = "No available tools were provided to assess tool selection criteria"
