"""The nodes of a decision graph (deepeval 4.3.1's classes, fields and construction checks; our code).

* ``TaskNode(instructions, output_label, children=[], evaluation_params=None, label=None)``: the LLM produces an
  output from the test-case fields and its parents' outputs; children are judgement or task nodes;
* ``BinaryJudgementNode(criteria, children=[], evaluation_params=None, label=None)``: a yes/no decision; exactly one
  ``VerdictNode(verdict=True)`` and one ``VerdictNode(verdict=False)`` child;
* ``NonBinaryJudgementNode(criteria, children=[], ...)``: one of its children's verdict strings (distinct);
* ``VerdictNode(verdict, score=None, child=None)``: a leaf with a score 0-10 (the metric's score is score / 10), or
  a ``child``: another node, a ``GEval`` or any metric whose score becomes the DAG's.

Children are added with ``node.add_node(child)`` / ``node.add_verdict(verdict, score=..., then=...)`` (or given as
``children=``, which deepeval 4.3.1 marks deprecated; both work here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deepeval.metrics.base_metric import BaseMetric
from deepeval.test_case import SingleTurnParams


class BaseNode:
    """Base of the single-turn nodes."""

    evaluation_params: list[SingleTurnParams] | None = None
    children: list[Any]

    def _validate(self) -> None:
        """Raise ``ValueError`` / ``TypeError`` for a node the graph cannot run."""


def _params(value: Any) -> list[SingleTurnParams] | None:
    if value is None:
        return None
    return [p if isinstance(p, SingleTurnParams) else SingleTurnParams(getattr(p, "value", p)) for p in value]


@dataclass(eq=False)
class VerdictNode(BaseNode):
    verdict: str | bool
    score: int | None = None
    child: Any = None

    def __post_init__(self) -> None:
        if self.score is not None and self.child is not None:
            raise ValueError("A VerdictNode can have either a 'score' or a 'child', but not both.")
        if self.score is None and self.child is None:
            raise ValueError("A VerdictNode must have either a 'score' or a 'child'.")
        if self.score is not None and not (0 <= self.score <= 10):
            raise ValueError("The score must be between 0 and 10, inclusive.")
        if self.child is not None and not isinstance(self.child, (BaseNode, BaseMetric)):
            raise TypeError(
                f"A VerdictNode's child must be a node or a metric, got {type(self.child).__name__}"
            )
        self.children = []


@dataclass(eq=False)
class TaskNode(BaseNode):
    instructions: str
    output_label: str
    children: list[BaseNode] = field(default_factory=list)
    evaluation_params: list[SingleTurnParams] | None = None
    label: str | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _params(self.evaluation_params)
        if self.children:
            self._validate()

    def add_node(self, child: BaseNode) -> BaseNode:
        self.children.append(child)
        return child

    def _validate(self) -> None:
        for child in self.children:
            if not isinstance(child, BaseNode):
                raise TypeError("A TaskNode's children must be BaseNode instances.")
            if isinstance(child, VerdictNode):
                raise ValueError("A TaskNode must not have a VerdictNode as one of their 'children'.")


class _Judgement(BaseNode):
    criteria: str
    children: list[VerdictNode]

    def add_verdict(self, verdict: Any, *, score: int | None = None, then: Any = None) -> VerdictNode:
        node = VerdictNode(verdict=verdict, score=score, child=then)
        self.children.append(node)
        return node

    def _verdict_children(self) -> None:
        for child in self.children:
            if not isinstance(child, VerdictNode):
                raise TypeError("All children must be of type VerdictNode.")


@dataclass(eq=False)
class BinaryJudgementNode(_Judgement):
    criteria: str
    children: list[VerdictNode] = field(default_factory=list)
    evaluation_params: list[SingleTurnParams] | None = None
    label: str | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _params(self.evaluation_params)
        if self.children:
            self._validate()

    def _validate(self) -> None:
        if len(self.children) != 2:
            raise ValueError("BinaryJudgementNode must have exactly 2 children.")
        self._verdict_children()
        if not all(isinstance(c.verdict, bool) for c in self.children):
            raise ValueError("All children BinaryJudgementNode must have a boolean verdict.")
        verdicts = [c.verdict for c in self.children]
        if verdicts.count(True) != 1 or verdicts.count(False) != 1:
            raise ValueError("BinaryJudgementNode must have one True and one False VerdictNode child.")


@dataclass(eq=False)
class NonBinaryJudgementNode(_Judgement):
    criteria: str
    children: list[VerdictNode] = field(default_factory=list)
    evaluation_params: list[SingleTurnParams] | None = None
    label: str | None = None

    def __post_init__(self) -> None:
        self.evaluation_params = _params(self.evaluation_params)
        if self.children:
            self._validate()

    @property
    def options(self) -> list[str]:
        """The verdict strings of its children, in order."""
        return [str(c.verdict) for c in self.children]

    def _validate(self) -> None:
        if not self.children:
            raise ValueError("NonBinaryJudgementNode must have at least one child.")
        self._verdict_children()
        seen: set[str] = set()
        for child in self.children:
            if not isinstance(child.verdict, str):
                raise ValueError(
                    "The verdict attribute of all NonBinaryJudgementNode children must be a string."
                )
            if child.verdict in seen:
                raise ValueError(
                    f"Duplicate verdict found: {child.verdict} in children of NonBinaryJudgementNode."
                )
            seen.add(child.verdict)


JUDGEMENTS = (BinaryJudgementNode, NonBinaryJudgementNode)
