"""Tool correctness as pure functions: how well the tools an agent called match the tools it was expected to call.

Three ways to compare (deepeval 4.3.1's, checked by running it; ``tests/metrics/test_agents_judge_free.py``):

* **exact** (``should_exact_match``): 1.0 when both lists have the same length and every position has the same
  name and type (and, per ``evaluation_params``, equal input parameters / output), else 0.0;
* **ordered** (``should_consider_ordering``): a weighted longest common subsequence of the expected tools in the
  called ones, divided by the number of expected tools;
* **unordered** (the default): each expected tool takes its best still-unused called tool; the sum of those match
  weights divided by the number of expected tools.

A match weight is 1.0 for the same name and type, times the share of input-parameter keys that agree when
``input_parameters`` is compared (nested dicts compared recursively), and 0.0 when ``output`` is compared and
differs. Both lists empty score 1.0; expected empty and something called scores 0.0. The denominator is the number
of **expected** tools (4.3.1's documentation says tools called; its code divides by the expected ones).

**ours:** in the unordered comparison each called tool is used at most once *by position*; 4.3.1 skips every called
tool *equal* to one already used, so two identical expected calls met by two identical calls score 0.5 there and 1.0
here. Missing input parameters (None) count as an empty dict (4.3.1 raises ``AttributeError`` when only one side
has them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from deepeval.test_case import ToolCall, ToolCallParams


@dataclass(frozen=True)
class Comparison:
    """What a comparison checks besides name and type."""

    input_parameters: bool = False
    output: bool = False

    @classmethod
    def of(cls, evaluation_params: Sequence[Any] | None) -> Comparison:
        values = {ToolCallParams(p).value for p in evaluation_params or ()}
        return cls(
            input_parameters=ToolCallParams.INPUT_PARAMETERS.value in values,
            output=ToolCallParams.OUTPUT.value in values,
        )


def parameter_agreement(expected: dict[str, Any] | None, called: dict[str, Any] | None) -> float:
    """Share of the keys of both dicts whose values agree (a nested dict by its own agreement); 1.0 when equal."""
    a, b = expected or {}, called or {}
    if a == b:
        return 1.0
    keys = set(a) | set(b)
    total = 0.0
    for key in set(a) & set(b):
        if a[key] == b[key]:
            total += 1 / len(keys)
        elif isinstance(a[key], dict) and isinstance(b[key], dict):
            total += parameter_agreement(a[key], b[key]) / len(keys)
    return total


def match_weight(expected: ToolCall, called: ToolCall, comparison: Comparison) -> float:
    """How well ``called`` stands for ``expected``: 0.0 for another name or type, else see module docstring."""
    if expected.name != called.name or expected.type != called.type:
        return 0.0
    weight = 1.0
    if comparison.input_parameters:
        weight *= parameter_agreement(expected.input_parameters, called.input_parameters)
    if comparison.output and expected.output != called.output:
        weight = 0.0
    return weight


def exact_score(called: Sequence[ToolCall], expected: Sequence[ToolCall], comparison: Comparison) -> float:
    if len(called) != len(expected):
        return 0.0
    for c, e in zip(called, expected, strict=True):
        if c.name != e.name or c.type != e.type:
            return 0.0
        if comparison.input_parameters and c.input_parameters != e.input_parameters:
            return 0.0
        if comparison.output and c.output != e.output:
            return 0.0
    return 1.0


def unordered_score(
    called: Sequence[ToolCall], expected: Sequence[ToolCall], comparison: Comparison
) -> float:
    if not expected:
        return 1.0 if not called else 0.0
    used: set[int] = set()
    total = 0.0
    for e in expected:
        best, best_index = 0.0, -1
        for index, c in enumerate(called):
            if index in used:
                continue
            weight = match_weight(e, c, comparison)
            if weight > best:
                best, best_index = weight, index
        if best > 0:
            total += best
            used.add(best_index)
    return total / len(expected)


def weighted_lcs(
    called: Sequence[ToolCall], expected: Sequence[ToolCall], comparison: Comparison
) -> tuple[list[ToolCall], float]:
    """The expected tools of the best-weighted common subsequence (in order) and its total weight."""
    m, n = len(expected), len(called)
    dp = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            weight = match_weight(expected[i - 1], called[j - 1], comparison)
            best = max(dp[i - 1][j], dp[i][j - 1])
            dp[i][j] = max(best, dp[i - 1][j - 1] + weight) if weight > 0 else best
    i, j, total = m, n, 0.0
    chosen: list[ToolCall] = []
    while i > 0 and j > 0:
        if dp[i][j] == dp[i - 1][j]:
            i -= 1
        elif dp[i][j] == dp[i][j - 1]:
            j -= 1
        else:
            chosen.append(expected[i - 1])
            total += dp[i][j] - dp[i - 1][j - 1]
            i, j = i - 1, j - 1
    return chosen[::-1], total


def ordered_score(called: Sequence[ToolCall], expected: Sequence[ToolCall], comparison: Comparison) -> float:
    if not expected:
        return 1.0 if not called else 0.0
    return weighted_lcs(called, expected, comparison)[1] / len(expected)


def type_mismatches(called: Sequence[ToolCall], expected: Sequence[ToolCall]) -> list[str]:
    """``"name (expected FUNCTION, called MCP)"`` for each expected tool called under its name with another type."""
    found = []
    for e in expected:
        for c in called:
            if c.name == e.name and c.type != e.type:
                found.append(f"{e.name} (expected {e.type.value}, called {c.type.value})")
                break
    return found
