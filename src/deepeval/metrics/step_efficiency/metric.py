"""StepEfficiencyMetric: how directly an agent carried out its task, as deepeval 4.3.1 measures it.

* ``llm``: the LLM reads the task from the trace, then grades the steps 0-1 with a reason;
* ``hybrid``: the LLM reads the task; System One grades (5 levels) when there is a trace, the LLM covering a failed
  call (without a trace the LLM grades, as 4.3.1);
* ``system_one``: one request, three questions over the compact trace (or the input, output and tools called):
  ``(2 P1 + P2 + E/4) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure.

Without a trace the LLM reads the input, output and tools called in its place (4.3.1 hands it the JSON ``null``).
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.plan_metric import Task
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import compact_trace, run_text, tools_json, trace_of
from deepeval.metrics.step_efficiency.names import EFFICIENT, REQUIRED_PARAMS
from deepeval.metrics.step_efficiency.prompts import StepEfficiencyTemplate
from deepeval.metrics.step_efficiency.questions import EFFICIENCY_LEVELS, StepEfficiencyQuestions
from deepeval.metrics.step_efficiency.schema import EfficiencyVerdict
from deepeval.models.structured import a_generate_structured


class StepEfficiencyMetric(AgentJudgedMetric):
    """How directly the agent carried out its task. Score in [0, 1]; higher is better."""

    default_template = StepEfficiencyTemplate
    default_question_set = StepEfficiencyQuestions
    requires_trace = True
    judged_what = "step efficiency"

    @property
    def __name__(self) -> str:
        return "Step Efficiency"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        trace = trace_of(test_case)
        if trace is not None:
            state: dict[str, Any] = {"trace": compact_trace(trace)}
        else:
            state = {
                "input": test_case.input,
                "actual_output": test_case.actual_output,
                "tools_called": tools_json(test_case.tools_called),
            }
        return state, list(self.question_set.whole_metric(has_trace=trace is not None))

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        assert ctx.llm is not None
        template = self.evaluation_template
        text = run_text(test_case)
        task = (
            await a_generate_structured(ctx.llm, template.extract_task_from_trace(trace_json=text), Task)
        ).task
        ctx.log("Task", task)
        trace = trace_of(test_case)
        graded = await decide_score(
            ctx,
            ScoreAsk(
                what=self.judged_what,
                prompt=lambda: template.get_execution_efficiency(task=task, trace_json_str=text),
                schema=EfficiencyVerdict,
                instructions=self.question_set.judgement(),
                levels=list(EFFICIENCY_LEVELS),
                state={"task": task, "trace": compact_trace(trace)} if trace is not None else {},
                kind=EFFICIENT,
                system_one=trace is not None,
            ),
        )
        ctx.log(
            "Judgement", {"score": graded.score, "decided_by": graded.decided_by, "reason": graded.reason}
        )
        return Outcome(graded.score, graded.reason, {"task": task, "decided_by": graded.decided_by})
