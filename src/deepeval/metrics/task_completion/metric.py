"""TaskCompletionMetric: how fully an agent accomplished its task, as deepeval 4.3.1 measures it.

* ``llm``: the LLM states the task and the outcome, from the trace when the test case has one (``_trace_dict``:
  set by ``evals_iterator`` for this metric, whose ``requires_trace`` is true) else from ``input``,
  ``actual_output`` and ``tools_called``; then grades how far the outcome achieves the task (``verdict`` 0-1, the
  score) with a reason. A ``task=`` given to the constructor replaces the extracted task (the outcome is still
  extracted).
* ``hybrid``: the LLM extracts both; System One grades (4 levels, value = expected level / 3), the LLM covering a
  failed call.
* ``system_one``: one request, no LLM: over the compact trace (or input, output and tools called) and the task
  when given, three questions (yes/no weight 2, yes/no weight 1, 4-level score):
  ``(2 P1 + P2 + E/3) / 4``.
* No judge configured (the embedded default): a ``ConfigurationError`` naming what to configure; the embedded
  judge answers no agent question (none was measured).

**ours:** ``measure()`` returns the score (4.3.1: None with ``async_mode=True``); a verdict outside [0, 1] is
re-asked once, then an error (4.3.1 takes any float); a given ``task`` is never overwritten (4.3.1 keeps the
first extracted task on the metric when none was given, and uses it for later test cases).
"""

from __future__ import annotations

from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import compact_trace, tools_json, tools_text, trace_of, trace_text
from deepeval.metrics.task_completion.names import OUTCOME_ACHIEVES_TASK, REQUIRED_PARAMS
from deepeval.metrics.task_completion.prompts import TaskCompletionTemplate
from deepeval.metrics.task_completion.questions import COMPLETION_LEVELS, TaskCompletionQuestions
from deepeval.metrics.task_completion.schema import TaskAndOutcome, TaskCompletionVerdict
from deepeval.models.structured import a_generate_structured


class TaskCompletionMetric(AgentJudgedMetric):
    """How fully the agent accomplished its task (see the module docstring). Score in [0, 1]; higher is better.

    Args:
        threshold: minimum passing score (1 in strict mode, where any score below 1 is 0).
        task: the task to grade against (default: the one the LLM reads from the trace or the input).
        model, system_one_model, eval_mode, include_reason, async_mode, strict_mode, verbose_mode, flaky,
        evaluation_template, question_set: as every metric of this package.
    """

    default_template = TaskCompletionTemplate
    default_question_set = TaskCompletionQuestions
    requires_trace = True
    judged_what = "task completion check"

    def __init__(
        self,
        threshold: float | None = 0.5,
        task: str | None = None,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
    ) -> None:
        if task is not None and not isinstance(task, str):
            raise TypeError(f"task must be a string, got {type(task).__name__}")
        self.task = task
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
            question_set=question_set,
        )

    @property
    def __name__(self) -> str:
        return "Task Completion"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg["task"] = self.task
        return cfg

    # -- system_one mode -------------------------------------------------------------------------------------------
    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        trace = trace_of(test_case)
        state: dict[str, Any]
        if trace is not None:
            state = {"trace": compact_trace(trace)}
        else:
            state = {
                "input": test_case.input,
                "actual_output": test_case.actual_output,
                "tools_called": tools_json(test_case.tools_called),
            }
        if self.task is not None:
            state["task"] = self.task
        questions = self.question_set.whole_metric(
            has_trace=trace is not None, has_task=self.task is not None
        )
        return state, list(questions)

    # -- llm / hybrid ----------------------------------------------------------------------------------------------
    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        assert ctx.llm is not None  # AgentJudgedMetric raised before without one
        template = self.evaluation_template
        trace = trace_of(test_case)
        if trace is not None:
            prompt = template.extract_task_and_outcome_from_trace(trace_json=trace_text(trace))
        else:
            prompt = template.extract_goal_and_outcome(
                input=test_case.input,
                actual_output=test_case.actual_output,
                tools_called_formatted=tools_text(test_case.tools_called) if test_case.tools_called else "",
            )
        extracted = await a_generate_structured(ctx.llm, prompt, TaskAndOutcome)
        task = self.task if self.task is not None else extracted.task
        ctx.attributes["outcome"] = extracted.outcome  # deepeval's attribute after a measure
        ctx.log("Task", task)
        ctx.log("Outcome", extracted.outcome)
        graded = await decide_score(
            ctx,
            ScoreAsk(
                what="task completion",
                prompt=lambda: template.generate_verdict(task=task, actual_outcome=extracted.outcome),
                schema=TaskCompletionVerdict,
                instructions=self.question_set.outcome_achieves_task(),
                levels=list(COMPLETION_LEVELS),
                state={"task": task, "outcome": extracted.outcome},
                kind=OUTCOME_ACHIEVES_TASK,
                score_field="verdict",
            ),
        )
        ctx.log("Verdict", {"score": graded.score, "decided_by": graded.decided_by, "reason": graded.reason})
        return Outcome(
            score=graded.score,
            reason=graded.reason,
            breakdown={"task": task, "outcome": extracted.outcome, "decided_by": graded.decided_by},
        )
