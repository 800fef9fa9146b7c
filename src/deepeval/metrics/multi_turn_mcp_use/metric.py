"""MultiTurnMCPUseMetric: over a conversation with an agent that uses MCP servers, whether it chose the right
primitives and passed the right arguments, as deepeval 4.3.1 measures it.

The exchanges of more than two turns (as MCP task completion takes them) are graded twice (0-1): primitive choice
and argument correctness; score = min(mean choice grade, mean argument grade); no such exchange: 0.0, with no judge
call. ``mcp_servers`` is required.

* ``llm``: the LLM grades and writes the reason; ``hybrid``: System One grades (4 levels each), the LLM covering a
  failed call and writing the reason;
* ``system_one``: one request over the turns (role, content, MCP calls, tools called) and ``mcp_servers``: yes/no
  (weight 2), yes/no (weight 1) and a 4-level score: ``(2 P1 + P2 + E/3) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure.
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.mcp_task_completion.metric import MCPTaskCompletionMetric
from deepeval.metrics.mcp_task_completion.schema import Task
from deepeval.metrics.mcp_use.metric import servers_state
from deepeval.metrics.multi_turn_mcp_use.names import ARGUMENTS, PRIMITIVES
from deepeval.metrics.multi_turn_mcp_use.prompts import MultiTurnMCPUseTemplate
from deepeval.metrics.multi_turn_mcp_use.questions import (
    ARGUMENT_LEVELS,
    PRIMITIVE_LEVELS,
    MultiTurnMCPUseQuestions,
)
from deepeval.metrics.multi_turn_mcp_use.schema import ArgsScore, Reason, ToolScore
from deepeval.metrics.scoring import success_of
from deepeval.models.structured import a_generate_structured

NO_TASK_REASON = "The score is 0.00 because the conversation has no exchange in which the agent took steps for a user's request."


class MultiTurnMCPUseMetric(MCPTaskCompletionMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``turns`` and ``mcp_servers``."""

    default_template = MultiTurnMCPUseTemplate
    default_question_set = MultiTurnMCPUseQuestions
    judged_what = "multi-turn MCP use check"

    @property
    def __name__(self) -> str:
        return "Multi-Turn MCP Use"

    def _degenerate(self, test_case: Any) -> Outcome | None:
        if not self._tasks(test_case):
            return Outcome(0.0, NO_TASK_REASON, {"tasks": 0})
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        state, _ = super()._system_one_request(test_case)
        state["mcp_servers"] = servers_state(test_case.mcp_servers)
        return state, list(self.question_set.whole_metric())

    def _ask(self, kind: str, task: Task, servers: list[dict[str, Any]]) -> ScoreAsk:
        template, steps = self.evaluation_template, "\n\n".join(task.steps_taken)
        available = json.dumps(servers, indent=2, ensure_ascii=False)
        state = {"task": task.task, "steps_taken": list(task.steps_taken), "mcp_servers": servers}
        if kind == "primitives":
            return ScoreAsk(
                what="MCP primitive choice",
                prompt=lambda: template.get_tool_correctness_score(
                    task=task.task, steps_taken=steps, available_primitives=available
                ),
                schema=ToolScore,
                instructions=self.question_set.primitives(),
                levels=list(PRIMITIVE_LEVELS),
                state=state,
                kind=PRIMITIVES,
            )
        return ScoreAsk(
            what="MCP argument correctness",
            prompt=lambda: template.get_args_correctness_score(
                task=task.task, steps_taken=steps, available_primitives=available
            ),
            schema=ArgsScore,
            instructions=self.question_set.arguments(),
            levels=list(ARGUMENT_LEVELS),
            state=state,
            kind=ARGUMENTS,
        )

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        tasks = self._tasks(test_case)
        servers = servers_state(test_case.mcp_servers)
        choices = await ctx.gather(*(decide_score(ctx, self._ask("primitives", t, servers)) for t in tasks))
        arguments = await ctx.gather(*(decide_score(ctx, self._ask("arguments", t, servers)) for t in tasks))
        choice_mean = sum(g.score for g in choices) / len(choices)
        argument_mean = sum(g.score for g in arguments) / len(arguments)
        score = min(choice_mean, argument_mean)
        ctx.log(
            "Exchanges",
            [
                {"task": t.task, "primitives": c.score, "arguments": a.score}
                for t, c, a in zip(tasks, choices, arguments, strict=True)
            ],
        )
        final: str | None = None
        if ctx.include_reason:
            assert ctx.llm is not None
            prompt = self.evaluation_template.generate_final_reason(
                final_score=score,
                success=success_of(score, self.threshold),
                reasons=[g.reason for g in [*choices, *arguments]],
            )
            final = (await a_generate_structured(ctx.llm, prompt, Reason)).reason
        breakdown = {"tasks": len(tasks), "primitives": choice_mean, "arguments": argument_mean}
        return Outcome(score, final, breakdown)
