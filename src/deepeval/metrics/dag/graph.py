"""``DeepAcyclicGraph``: the checked graph of a DAG metric (deepeval 4.3.1's rules and messages; our code).

At construction: root nodes of one family (no mix of single- and multi-turn nodes); a judgement node as a root
only when it is the only root; every node checks itself (a binary node's two verdicts, distinct non-binary
verdicts...); a cycle is ``ValueError("Cycle detected in DAG graph.")``; a root reachable from another root is
refused; so is a node other than a verdict with no outgoing edge (ours: 4.3.1 accepts a childless TaskNode, and a
measure that ends there has no score). Each node's in-degree counts its incoming edges, except that sibling verdicts of one judgement node that
lead to the same node count once (only one of them can fire), so a node waits for every parent that can arrive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.metrics.dag.nodes import JUDGEMENTS, BaseNode, VerdictNode


def edges_of(node: Any) -> list[Any]:
    """A node's outgoing edges: its children, and a verdict's child node (a metric child is no node)."""
    out = list(getattr(node, "children", None) or [])
    child = getattr(node, "child", None)
    if child is not None and isinstance(child, BaseNode):
        out.append(child)
    return out


def node_family(node: Any) -> str:
    """``"single"`` or ``"multi"`` (conversational nodes say so with ``multiturn = True``)."""
    return "multi" if getattr(type(node), "multiturn", False) else "single"


class DeepAcyclicGraph:
    """A decision graph from its root nodes (see the module docstring).

    Raises:
        ValueError: mixed node families, several roots with a judgement root, a cycle, a root reachable from
            another root, a node that leads to no VerdictNode, or a node that fails its own check.
        TypeError: a child of the wrong type.
    """

    multiturn: bool

    def __init__(self, root_nodes: Sequence[Any]) -> None:
        roots = list(root_nodes)
        if not roots:
            raise ValueError("A DeepAcyclicGraph needs at least one root node.")
        if not all(isinstance(n, BaseNode) or hasattr(n, "_validate") for n in roots):
            raise TypeError("root_nodes must be DAG nodes")
        if len({node_family(n) for n in roots}) > 1:
            raise ValueError("You cannot mix multi and single turn nodes")
        self.multiturn = node_family(roots[0]) == "multi"
        if len(roots) > 1 and any(
            isinstance(n, JUDGEMENTS) or getattr(n, "is_judgement", False) for n in roots
        ):
            raise ValueError(
                "You cannot provide more than one root node when a BinaryJudgementNode or NonBinaryJudgementNode "
                "is a root."
            )
        self.root_nodes = roots
        self.indegree, self.parents = self._build()
        for root in roots:
            if self.indegree[root] > 0:
                raise ValueError(
                    "You cannot declare a node as a root node when it is also reachable from another root node."
                )

    def _build(self) -> tuple[dict[Any, int], dict[Any, list[Any]]]:
        indegree: dict[Any, int] = {}
        parents: dict[Any, list[Any]] = {}
        done: set[int] = set()
        on_path: set[int] = set()

        def visit(node: Any) -> None:
            if id(node) in on_path:
                raise ValueError("Cycle detected in DAG graph.")
            if id(node) in done:
                return
            done.add(id(node))
            node._validate()
            on_path.add(id(node))
            indegree.setdefault(node, 0)
            for child in edges_of(node):
                indegree[child] = indegree.get(child, 0) + 1
                parents.setdefault(child, []).append(node)
                visit(child)
            on_path.discard(id(node))

        for root in self.root_nodes:
            visit(root)
        for node in indegree:
            if not edges_of(node) and not _is_verdict(node):
                label = (
                    getattr(node, "label", None) or getattr(node, "output_label", None) or type(node).__name__
                )
                raise ValueError(
                    f"{type(node).__name__} {label!r} leads to no VerdictNode: every path of the graph must end at a "
                    "VerdictNode (give the node a child judgement node whose verdicts score the test case)."
                )
        self._collapse_exclusive_verdicts(indegree, parents)
        return indegree, parents

    def _collapse_exclusive_verdicts(self, indegree: dict[Any, int], parents: dict[Any, list[Any]]) -> None:
        """Sibling verdicts (one judgement owner, not roots) that lead to one node count as one incoming edge."""
        roots = {id(r) for r in self.root_nodes}
        for node, node_parents in parents.items():
            by_owner: dict[int, int] = {}
            for parent in node_parents:
                if not _is_verdict(parent) or id(parent) in roots:
                    continue
                owners = parents.get(parent) or []
                if len(owners) != 1 or not _is_judgement(owners[0]):
                    continue
                by_owner[id(owners[0])] = by_owner.get(id(owners[0]), 0) + 1
            for count in by_owner.values():
                if count > 1:
                    indegree[node] -= count - 1

    def nodes(self) -> list[Any]:
        """Every node, roots first (in-degree order of discovery)."""
        return list(self.indegree)


def _is_verdict(node: Any) -> bool:
    return isinstance(node, VerdictNode) or getattr(node, "is_verdict", False)


def _is_judgement(node: Any) -> bool:
    return isinstance(node, JUDGEMENTS) or getattr(node, "is_judgement", False)


def copy_graph(graph: DeepAcyclicGraph) -> DeepAcyclicGraph:
    """A copy of ``graph`` whose nodes are new objects (shared nodes stay shared); metric children are the same
    objects (each measure copies them anyway)."""
    import copy

    memo: dict[int, Any] = {}

    def clone(node: Any) -> Any:
        if id(node) in memo:
            return memo[id(node)]
        new = copy.copy(node)
        memo[id(node)] = new
        if getattr(node, "children", None) is not None:
            new.children = [clone(c) for c in node.children]
        child = getattr(node, "child", None)
        if child is not None and isinstance(child, BaseNode):
            new.child = clone(child)
        return new

    return DeepAcyclicGraph([clone(r) for r in graph.root_nodes])
