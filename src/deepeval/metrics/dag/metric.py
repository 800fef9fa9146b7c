"""``DAGMetric``: a score from the user's decision graph (:class:`~deepeval.metrics.dag.graph.DeepAcyclicGraph`).

Facts from deepeval 4.3.1 (its behaviour is the reference; the text is ours):

* ``DAGMetric(name, dag, model=None, system_one_model=None, eval_mode=None, threshold=0.5, include_reason=True,
  async_mode=True, strict_mode=False, verbose_mode=False, _include_dag_suffix=True, flaky=False)``; ``__name__``
  ``"<name> [DAG]"``; the graph is copied at construction;
* the required fields are the union of every node's ``evaluation_params``;
* traversal: from the roots, a node runs once every parent that can arrive has (in-degree); a task node's output is
  shown to its children under its ``output_label``; a judgement node's verdict selects the verdict child with that
  verdict; a verdict leaf sets the score to ``score / 10`` and the reason is written from the path; a verdict whose
  child is a node continues there; a verdict whose child is a metric measures that metric (a ``GEval`` child is
  rebuilt on the DAG's model) and takes its score and reason;
* eval modes: judgement nodes ask System One in ``hybrid`` (a yes/no question over ``{"text": ...}``, P >= 0.5 is
  true; a choice question for a non-binary node) with the LLM deciding when System One fails, and in
  ``system_one`` with no fallback; task nodes always need the LLM.

**ours:** the LLM's verdict is held to the node's options (a schema with the allowed verdicts, re-asked once);
without an LLM a graph with task nodes, or a reason to write, says what to configure (``system_one`` mode writes
the reason from the path instead); strict mode turns a score below 1 into 0 (as for every metric here); the embedded
offline judge cannot answer free criteria: ``hybrid`` hands those decisions to the LLM, ``system_one`` is a
``ConfigurationError``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Awaitable
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import ConfigurationError, ErrorKind, JudgeError
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.decisions import FALLBACK_KINDS
from deepeval.metrics._engine.judges import NO_LLM_HELP, Judges
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics.base_metric import BaseMetric, SystemOnePlan
from deepeval.metrics.dag.graph import DeepAcyclicGraph, copy_graph
from deepeval.metrics.dag.nodes import (
    BaseNode,
    BinaryJudgementNode,
    NonBinaryJudgementNode,
    TaskNode,
    VerdictNode,
)
from deepeval.metrics.dag.prompts import DAGTemplate
from deepeval.metrics.dag.schema import (
    BinaryJudgementVerdict,
    MetricScoreReason,
    NonBinaryJudgementVerdict,
    TaskNodeOutput,
    choice_verdict_schema,
)
from deepeval.metrics.delimit import quote
from deepeval.metrics.g_eval.criteria import PARAM_LABELS, field_text
from deepeval.metrics.result import MeasureResult
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.resolve import is_embedded
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.system_one.schema import ChoiceQuestion, NoulQuestion
from deepeval.models.usage import record_usage

__all__ = ["DAGMetric", "fence", "required_params"]


def fence(text: str, fenced: bool) -> str:
    """``text`` between data markers for an LLM prompt; as is in a System One state (a JSON value the judge reads
    as data, billed by its size)."""
    return quote("data", text) if fenced else text


def required_params(graph: DeepAcyclicGraph) -> list[Any]:
    """Every node's ``evaluation_params``, in the order first met (deepeval: the union over the graph)."""
    out: list[Any] = []
    for node in graph.nodes():
        for p in getattr(node, "evaluation_params", None) or ():
            if p not in out:
                out.append(p)
    return out


class _Walk:
    """One traversal of the graph for one measure (deepeval 4.3.1's order; see the module docstring)."""

    def __init__(self, metric: DAGMetric, test_case: Any, ctx: MeasureContext) -> None:
        self.metric, self.test_case, self.ctx = metric, test_case, ctx
        self.graph = metric.dag
        self.remaining = dict(self.graph.indegree)
        self.outputs: dict[Any, Any] = {}
        self.decided: dict[Any, Any] = {}
        self.depth: dict[Any, int] = {}
        self.steps: list[str] = []
        self.final_score: float | None = None
        self.final_reason: str | None = None
        self.breakdown: dict[str, Any] = {"path": []}

    async def run(self) -> None:
        await self.ctx.gather(*(self.visit(root, 0) for root in self.graph.root_nodes))

    def _arrived(self, node: Any) -> bool:
        self.remaining[node] -= 1
        return self.remaining[node] <= 0

    async def visit(self, node: Any, depth: int) -> None:
        if isinstance(node, VerdictNode):
            await self.visit_verdict(node, depth)
            return
        self.depth[node] = max(self.depth.get(node, 0), depth)
        if not self._arrived(node):
            return
        parents = self.graph.parents.get(node)
        if isinstance(node, TaskNode):
            self.outputs[node] = await self.metric._task(
                node, self.test_case, parents, self.outputs, self.ctx
            )
        else:
            self.decided[node] = await self.metric._judge(
                node, self.test_case, parents, self.outputs, self.ctx
            )
        level = self.depth[node]
        self._log(node, level)
        await self.ctx.gather(*(self.visit(child, level + 1) for child in node.children))

    async def visit_verdict(self, node: VerdictNode, depth: int) -> None:
        if not self._arrived(node):
            return
        parents = self.graph.parents.get(node)
        parent = parents[0] if parents else None
        if isinstance(parent, (BinaryJudgementNode, NonBinaryJudgementNode)):
            if self.decided[parent].verdict != node.verdict:
                return
        child = node.child
        if child is None:
            assert node.score is not None
            self.steps.append(f"VerdictNode (level {depth}): verdict {node.verdict!r}, score {node.score}/10")
            self.breakdown["path"].append({"verdict": node.verdict, "score": node.score})
            self.final_score = node.score / 10
            self.final_reason = await self.metric._leaf_reason(self.final_score, self.steps, self.ctx)
        elif isinstance(child, BaseNode):
            await self.visit(child, depth)
        else:
            measured = await self.metric._child_metric(child, self.test_case)
            self.steps.append(
                f"VerdictNode (level {depth}): verdict {node.verdict!r}, scored by {measured.__name__}: "
                f"{measured.score}"
            )
            self.breakdown["path"].append(
                {"verdict": node.verdict, "metric": measured.__name__, "score": measured.score}
            )
            self.final_score = measured.score
            self.final_reason = measured.reason

    def _log(self, node: Any, level: int) -> None:
        label = getattr(node, "label", None) or "None"
        if isinstance(node, TaskNode):
            out = self.outputs[node]
            self.steps.append(
                f"TaskNode (level {level}), label {label}\nInstructions: {node.instructions}\n"
                f"{node.output_label}: {json.dumps(out, ensure_ascii=False) if not isinstance(out, str) else out}"
            )
            self.breakdown["path"].append({"task": label, "output": out})
        else:
            v = self.decided[node]
            kind = type(node).__name__
            self.steps.append(
                f"{kind} (level {level}), label {label}\nCriteria: {node.criteria}\nVerdict: {v.verdict}\n"
                f"Reason: {v.reason}"
            )
            self.breakdown["path"].append(
                {"judgement": label, "criteria": node.criteria, "verdict": v.verdict}
            )


class DAGMetric(NoOfflineTier, EngineMetric):
    """deepeval 4.3.1's constructor (see the module docstring).

    Raises (constructor):
        ValueError: a cycle, or any check of :class:`DeepAcyclicGraph` on the copied graph.
        TypeError: ``dag`` is not a ``DeepAcyclicGraph`` of single-turn nodes.
    """

    default_template = DAGTemplate
    default_question_set = DAGTemplate

    def __init__(
        self,
        name: str,
        dag: DeepAcyclicGraph,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        threshold: float | None = 0.5,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        _include_dag_suffix: bool = True,
        flaky: bool = False,
        *,
        evaluation_template: Any = None,
    ) -> None:
        if not isinstance(dag, DeepAcyclicGraph):
            raise TypeError(f"dag must be a DeepAcyclicGraph, got {type(dag).__name__}")
        self._check_graph(dag)
        self.name = name
        self._include_dag_suffix = _include_dag_suffix
        self.dag = copy_graph(dag)
        super().__init__(
            threshold=threshold,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            evaluation_template=evaluation_template,
        )

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [DAG]" if self._include_dag_suffix else self.name

    def _check_graph(self, dag: DeepAcyclicGraph) -> None:
        if dag.multiturn:
            raise TypeError("DAGMetric takes a graph of single-turn nodes; use ConversationalDAGMetric")

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg.update(name=self.name, dag=_graph_key(self.dag))
        return cfg

    # -- EngineMetric hooks: every mode walks the graph (no whole-metric System One request) ---------------------
    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, [p.value for p in required_params(self.dag)], self.__name__)

    def system_one_plan(self, test_case: Any) -> SystemOnePlan | None:
        return None

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        from deepeval.test_case.encodable import encodable

        test_case = encodable(test_case)
        self._check_params(test_case)
        judges = self.judges()
        self._check_judges(judges)
        return await self._measure_llm_hybrid(test_case, judges, sequential)

    def _check_judges(self, judges: Judges) -> None:
        has_tasks = any(isinstance(n, TaskNode) for n in self.dag.nodes())
        if judges.llm is None and has_tasks:
            raise ConfigurationError(
                f"{self.__name__} has task nodes, which need an LLM judge, but {NO_LLM_HELP}"
            )

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Any:
        return None

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        walk = _Walk(self, test_case, ctx)
        await walk.run()
        for step in walk.steps:
            ctx.log("Node", step)
        if walk.final_score is None:
            raise ValueError(
                f"{self.__name__}: the graph reached no VerdictNode for this test case (no score); check that every "
                "judgement verdict leads to a verdict"
            )
        return Outcome(score=walk.final_score, reason=walk.final_reason, breakdown=walk.breakdown)

    # -- the nodes ---------------------------------------------------------------------------------------------
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
        for p in node.evaluation_params or ():
            parts.append(f"{PARAM_LABELS[p]}:\n{fence(field_text(getattr(test_case, p.value)), fenced)}")
        return "\n\n".join(parts)

    async def _task(
        self,
        node: TaskNode,
        test_case: Any,
        parents: list[Any] | None,
        outputs: dict[Any, Any],
        ctx: MeasureContext,
    ) -> Any:
        if node.evaluation_params is None and parents is None:
            raise ValueError("A TaskNode must have either a 'evaluation_params' or parent node(s).")
        assert ctx.llm is not None
        prompt = call_template(
            self.evaluation_template.generate_task_output,
            instructions=node.instructions,
            text=self._text(node, test_case, parents, outputs),
        )
        return (await a_generate_structured(ctx.llm, prompt, TaskNodeOutput)).output

    async def _judge(
        self,
        node: BinaryJudgementNode | NonBinaryJudgementNode,
        test_case: Any,
        parents: list[Any] | None,
        outputs: dict[Any, Any],
        ctx: MeasureContext,
    ) -> Any:
        text = self._text(node, test_case, parents, outputs)
        if ctx.mode is not EvalMode.LLM and ctx.system_one is not None and not ctx.system_one_off:
            plain = self._text(node, test_case, parents, outputs, fenced=False)
            decided = await self._system_one_verdict(node, plain, ctx)
            if decided is not None:
                return decided
        if ctx.llm is None:
            raise ConfigurationError(f"{self.__name__}: a judgement node needs a judge, but {NO_LLM_HELP}")
        if isinstance(node, BinaryJudgementNode):
            prompt = call_template(
                self.evaluation_template.generate_binary_verdict, criteria=node.criteria, text=text
            )
            return await a_generate_structured(ctx.llm, prompt, BinaryJudgementVerdict)
        prompt = call_template(
            self.evaluation_template.generate_non_binary_verdict,
            criteria=node.criteria,
            text=text,
            options=node.options,
        )
        reply = await a_generate_structured(ctx.llm, prompt, choice_verdict_schema(node.options))
        return NonBinaryJudgementVerdict(verdict=str(reply.verdict), reason=str(reply.reason))  # type: ignore[attr-defined]

    async def _system_one_verdict(
        self, node: BinaryJudgementNode | NonBinaryJudgementNode, text: str, ctx: MeasureContext
    ) -> Any:
        """The verdict from System One, or None when the LLM decides instead (hybrid after a failure)."""
        assert ctx.system_one is not None
        if is_embedded(ctx.system_one):
            ctx.fallback_reasons.append(
                "the embedded offline judge cannot answer free criteria: the LLM decides"
            )
            return None
        state = {"text": text}
        question: NoulQuestion | ChoiceQuestion
        if isinstance(node, BinaryJudgementNode):
            question = NoulQuestion(instructions=node.criteria)
        else:
            question = ChoiceQuestion(instructions=node.criteria, options=dict.fromkeys(node.options))
        try:
            answers, cost = await a_decide_checked(ctx.system_one, state, {"verdict": question})
        except JudgeError as err:
            if ctx.mode is EvalMode.SYSTEM_ONE or err.kind not in FALLBACK_KINDS or ctx.llm is None:
                raise
            ctx.fallback_reasons.append(f"{err.kind}: {err}")
            if err.kind == ErrorKind.auth:
                ctx.system_one_off = True
            return None
        record_usage(cost=cost)
        ctx.note_answers(answers)
        if isinstance(node, BinaryJudgementNode):
            noul = answers.nouls.get("verdict")
            if noul is not None:
                ctx.confidences.append(noul.confidence)
                return BinaryJudgementVerdict(
                    verdict=noul.probability >= 0.5, reason=f"P(true)={noul.probability:.2f}"
                )
        else:
            choice = answers.choices.get("verdict")
            if choice is not None and choice.choice in node.options:
                ctx.confidences.append(choice.confidence)
                p = choice.probabilities.get(choice.choice, 0.0)
                return NonBinaryJudgementVerdict(
                    verdict=choice.choice, reason=f"P={p:.2f}, confidence={choice.confidence:.2f}"
                )
        if ctx.mode is EvalMode.SYSTEM_ONE or ctx.llm is None:
            raise JudgeError(
                f"{self.__name__}: System One gave no answer for the judgement {node.criteria[:60]!r}",
                kind=ErrorKind.missing_answer,
            )
        ctx.fallback_reasons.append("missing_answer: System One gave no answer to a judgement node")
        return None

    async def _leaf_reason(self, score: float, steps: list[str], ctx: MeasureContext) -> str | None:
        if not self.include_reason:
            return None
        if ctx.llm is None:
            path = "; ".join(s.splitlines()[0] for s in steps)
            return f"The score is {score:.2f}: the graph's path was {path}."
        prompt = call_template(
            self.evaluation_template.generate_reason,
            name=self.__name__,
            score=score,
            verbose_steps=list(steps),
        )
        return (await a_generate_structured(ctx.llm, prompt, MetricScoreReason)).reason

    async def _child_metric(self, child: BaseMetric, test_case: Any) -> BaseMetric:
        """The verdict's child metric measured on ``test_case`` (a copy; a GEval child rebuilt on this metric's
        judges, as deepeval rebuilds it on the DAG's model: in ``llm`` mode whenever the DAG has an LLM, as
        deepeval's GEval always is; in ``system_one`` mode on the System One judge)."""
        from deepeval.metrics.g_eval.metric import GEval

        measured: BaseMetric
        if isinstance(child, GEval):
            judges = self.judges()
            mode = EvalMode.LLM if judges.llm is not None else judges.mode
            measured = GEval(
                name=child.name,
                evaluation_params=child.evaluation_params,
                criteria=child.criteria,
                evaluation_steps=None if child.criteria else child.evaluation_steps,
                rubric=child.rubric,
                model=judges.llm if judges.llm is not None else self.model_argument,
                system_one_model=self.system_one_model_argument,
                eval_mode=mode,
                _include_g_eval_suffix=child._include_g_eval_suffix,
            )
        else:
            fresh = getattr(child, "fresh_copy", None)
            measured = fresh() if callable(fresh) else copy.deepcopy(child)
        measured.verbose_mode = False
        result = measured.a_measure(test_case)
        if isinstance(result, Awaitable):
            await result
        return measured


def _graph_key(graph: DeepAcyclicGraph) -> list[Any]:
    """The graph's content for the cache key (node kinds, texts, verdicts, scores, edges by position)."""
    nodes = graph.nodes()
    index = {id(n): i for i, n in enumerate(nodes)}
    out: list[Any] = []
    for n in nodes:
        entry: dict[str, Any] = {"kind": type(n).__name__}
        for attr in ("instructions", "output_label", "criteria", "verdict", "score", "label"):
            if hasattr(n, attr):
                entry[attr] = getattr(n, attr)
        entry["params"] = [p.value for p in getattr(n, "evaluation_params", None) or ()]
        entry["children"] = [index[id(c)] for c in getattr(n, "children", None) or ()]
        child = getattr(n, "child", None)
        if child is not None:
            entry["child"] = index.get(id(child), getattr(child, "__name__", type(child).__name__))
        out.append(entry)
    return out
