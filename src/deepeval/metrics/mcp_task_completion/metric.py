"""MCPTaskCompletionMetric: over a conversation with an agent that uses MCP servers, how completely it completed
each task the user asked for, as deepeval 4.3.1 measures it.

The turns are cut into exchanges (as goal accuracy cuts them); only exchanges of more than two turns count (4.3.1's
rule: the user's turn and at least two agent steps). Per exchange one graded judgement (0-1) of the task as the
user saw it; score = mean; no such exchange: 0.0, with no judge call. ``mcp_servers`` is required.

* ``llm``: the LLM grades each exchange and writes the reason; ``hybrid``: System One grades (4 levels), the LLM
  covering a failed call and writing the reason;
* ``system_one``: one request over the turns (role, content, MCP calls, tools called): yes/no (weight 2), yes/no
  (weight 1) and a 4-level score: ``(2 P1 + P2 + E/3) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import exchanges, primitive_state, tools_json
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.mcp_task_completion.names import TASK_DONE
from deepeval.metrics.mcp_task_completion.prompts import MCPTaskCompletionTemplate
from deepeval.metrics.mcp_task_completion.questions import COMPLETION_LEVELS, MCPTaskCompletionQuestions
from deepeval.metrics.mcp_task_completion.schema import Reason, Task, TaskScore
from deepeval.metrics.scoring import success_of
from deepeval.models.structured import a_generate_structured

NO_TASK_REASON = "The score is 0.00 because the conversation has no exchange in which the agent took steps for a user's task."


def _mcp_calls(turn: Any) -> dict[str, Any]:
    calls = {
        "mcp_tools_called": turn.mcp_tools_called or [],
        "mcp_resources_called": turn.mcp_resources_called or [],
        "mcp_prompts_called": turn.mcp_prompts_called or [],
    }
    return {key: [primitive_state(c) for c in value] for key, value in calls.items() if value}


def task_of(unit: list[Any]) -> Task:
    user = []
    for turn in unit:
        if turn.role != "user":
            break
        user.append(turn.content)
    steps = []
    for turn in unit[1:]:
        calls = _mcp_calls(turn)
        if calls:
            steps.append(
                f"Agent's MCP calls:\n{json.dumps(calls, indent=2, ensure_ascii=False)}\n{turn.content}"
            )
        else:
            steps.append(f"Agent's response to user:\n{turn.content}")
    return Task(task="\n".join(user), steps_taken=steps)


class MCPTaskCompletionMetric(AgentJudgedMetric, BaseConversationalMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``turns`` and ``mcp_servers``."""

    default_template: ClassVar[Any] = MCPTaskCompletionTemplate
    default_question_set: ClassVar[Any] = MCPTaskCompletionQuestions
    judged_what = "MCP task completion check"

    @property
    def __name__(self) -> str:
        return "MCP Task Completion"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)
        if not test_case.mcp_servers:
            raise MissingTestCaseParamsError(
                f"{self.__name__} needs the test-case field mcp_servers (the MCP servers the agent could use), "
                "which is empty"
            )

    def _tasks(self, test_case: Any) -> list[Task]:
        return [task_of(u) for u in exchanges(test_case.turns) if len(u) > 2]

    def _degenerate(self, test_case: Any) -> Outcome | None:
        if not self._tasks(test_case):
            return Outcome(0.0, NO_TASK_REASON, {"tasks": 0})
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        turns = []
        for turn in test_case.turns:
            entry: dict[str, Any] = {"role": turn.role, "content": turn.content, **_mcp_calls(turn)}
            if turn.tools_called:
                entry["tools_called"] = tools_json(turn.tools_called)
            turns.append(entry)
        return {"turns": turns}, list(self.question_set.whole_metric())

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        tasks = self._tasks(test_case)
        template = self.evaluation_template

        def ask(task: Task) -> ScoreAsk:
            steps = "\n\n".join(task.steps_taken)
            return ScoreAsk(
                what="task completion",
                prompt=lambda: template.get_task_completion_score(task=task.task, steps_taken=steps),
                schema=TaskScore,
                instructions=self.question_set.judgement(),
                levels=list(COMPLETION_LEVELS),
                state={"task": task.task, "steps_taken": list(task.steps_taken)},
                kind=TASK_DONE,
            )

        grades = await ctx.gather(*(decide_score(ctx, ask(t)) for t in tasks))
        score = sum(g.score for g in grades) / len(grades)
        ctx.log(
            "Tasks",
            [
                {"task": t.task, "score": g.score, "reason": g.reason}
                for t, g in zip(tasks, grades, strict=True)
            ],
        )
        final: str | None = None
        if ctx.include_reason:
            assert ctx.llm is not None
            prompt = template.generate_final_reason(
                final_score=score,
                success=success_of(score, self.threshold),
                reasons=[g.reason for g in grades],
            )
            final = (await a_generate_structured(ctx.llm, prompt, Reason)).reason
        return Outcome(score, final, {"tasks": len(tasks)})
