"""The conversational nodes of a decision graph (deepeval 4.3.1's classes): as the single-turn ones, with
``MultiTurnParams`` and a ``turn_window=(start, end)`` of turn indices (inclusive) that the node reads; without
one, every turn. A graph may not mix them with single-turn nodes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from deepeval.metrics.dag.nodes import BinaryJudgementNode, NonBinaryJudgementNode, TaskNode, VerdictNode
from deepeval.test_case import MultiTurnParams


def _turn_params(value: Any) -> list[MultiTurnParams] | None:
    if value is None:
        return None
    return [p if isinstance(p, MultiTurnParams) else MultiTurnParams(getattr(p, "value", p)) for p in value]


def check_turn_window(turn_window: Any, n_turns: int) -> tuple[int, int]:
    """``(start, end)`` when it is a valid window over ``n_turns`` turns (deepeval 4.3.1's rule: two indices,
    ``0 <= start < end < n_turns``).

    Raises:
        ValueError: anything else.
    """
    if len(turn_window) != 2:
        raise ValueError("A 'turn_window' must have only 2 indices representing start and end")
    start, end = turn_window
    if start >= end or (end - start) >= n_turns or start < 0 or end < 0 or end >= n_turns:
        raise ValueError("The 'turn_window' passed is invalid. Please recheck your 'turn_window' values.")
    return int(start), int(end)


class _Conversational:
    multiturn: ClassVar[bool] = True
    turn_window: tuple[int, int] | None = None


@dataclass(eq=False)
class ConversationalVerdictNode(_Conversational, VerdictNode):
    pass


@dataclass(eq=False)
class ConversationalTaskNode(_Conversational, TaskNode):
    turn_window: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _turn_params(self.evaluation_params)  # type: ignore[assignment]
        if self.children:
            self._validate()


@dataclass(eq=False)
class ConversationalBinaryJudgementNode(_Conversational, BinaryJudgementNode):
    turn_window: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _turn_params(self.evaluation_params)  # type: ignore[assignment]
        if self.children:
            self._validate()

    def add_verdict(self, verdict: Any, *, score: int | None = None, then: Any = None) -> VerdictNode:
        node = ConversationalVerdictNode(verdict=verdict, score=score, child=then)
        self.children.append(node)
        return node


@dataclass(eq=False)
class ConversationalNonBinaryJudgementNode(_Conversational, NonBinaryJudgementNode):
    turn_window: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _turn_params(self.evaluation_params)  # type: ignore[assignment]
        if self.children:
            self._validate()

    def add_verdict(self, verdict: Any, *, score: int | None = None, then: Any = None) -> VerdictNode:
        node = ConversationalVerdictNode(verdict=verdict, score=score, child=then)
        self.children.append(node)
        return node


ConversationalBaseNode = _Conversational
