"""``ConversationalDAGMetric``: DAGMetric over a ``ConversationalTestCase`` (deepeval 4.3.1: ``__name__``
``"<name> [ConversationalDAG]"``; each node reads the turns of its ``turn_window`` (every turn without one) with
the turn fields its ``evaluation_params`` name; a ``ConversationalGEval`` child is rebuilt on the DAG's judges)."""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics._engine.params import require_turns
from deepeval.metrics.base_metric import BaseConversationalMetric, BaseMetric
from deepeval.metrics.conversational_dag.nodes import check_turn_window
from deepeval.metrics.dag.graph import DeepAcyclicGraph
from deepeval.metrics.dag.metric import DAGMetric, fence
from deepeval.metrics.dag.nodes import TaskNode
from deepeval.metrics.g_eval.criteria import field_state

__all__ = ["ConversationalDAGMetric"]


class ConversationalDAGMetric(DAGMetric, BaseConversationalMetric):
    """deepeval 4.3.1's constructor (DAGMetric's)."""

    __init__ = DAGMetric.__init__  # its own attribute, so the engine's __init__ does not replace it

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [ConversationalDAG]" if self._include_dag_suffix else self.name

    def _check_graph(self, dag: DeepAcyclicGraph) -> None:
        if not dag.multiturn:
            raise TypeError("ConversationalDAGMetric takes a graph of conversational nodes; use DAGMetric")

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)
        for node in self.dag.nodes():
            window = getattr(node, "turn_window", None)
            if window is not None and getattr(node, "evaluation_params", None) is not None:
                check_turn_window(window, len(test_case.turns))

    def _text(
        self,
        node: Any,
        test_case: Any,
        parents: list[Any] | None,
        outputs: dict[Any, Any],
        *,
        fenced: bool = True,
    ) -> str:
        parts = []
        for parent in parents or ():
            if isinstance(parent, TaskNode):
                out = outputs[parent]
                shown = out if isinstance(out, str) else json.dumps(out, ensure_ascii=False, indent=1)
                parts.append(f"{parent.output_label}:\n{fence(shown, fenced)}")
        params = node.evaluation_params
        if params is not None:
            turns = test_case.turns
            start, end = (
                check_turn_window(node.turn_window, len(turns)) if node.turn_window else (0, len(turns) - 1)
            )
            shown_turns = []
            for turn in turns[start : end + 1]:
                row = {}
                for p in params:
                    value = getattr(turn, p.value, None)
                    if value is not None:
                        row[p.value] = field_state(value)
                shown_turns.append(row)
            parts.append(
                "Full Conversation:\n" + fence(json.dumps(shown_turns, ensure_ascii=False, indent=1), fenced)
            )
        return "\n\n".join(parts)

    async def _child_metric(self, child: BaseMetric, test_case: Any) -> BaseMetric:
        from deepeval.config.eval_mode import EvalMode
        from deepeval.metrics.conversational_g_eval.metric import ConversationalGEval

        if not isinstance(child, ConversationalGEval):
            return await super()._child_metric(child, test_case)
        judges = self.judges()
        measured = ConversationalGEval(
            name=child.name,
            evaluation_params=child.evaluation_params,
            criteria=child.criteria,
            evaluation_steps=None if child.criteria else child.evaluation_steps,
            rubric=child.rubric,
            model=judges.llm if judges.llm is not None else self.model_argument,
            system_one_model=self.system_one_model_argument,
            eval_mode=EvalMode.LLM if judges.llm is not None else judges.mode,
            _include_g_eval_suffix=child._include_g_eval_suffix,
        )
        await measured.a_measure(test_case)
        return measured
