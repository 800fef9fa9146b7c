"""GoalAccuracyMetric: over a conversation, whether the assistant achieved each goal the user stated and how well
it planned and followed its steps, as deepeval 4.3.1 measures it.

The turns are cut into exchanges (a user turn, or several in a row, up to the assistant turns that answer them; a
trailing user turn with no answer is left out). Per exchange two graded judgements (0-1): the goal (did the
visible replies achieve it?) and the plan (clear, complete, followed, tools included). Score = (mean goal grade +
mean plan grade) / 2; a conversation with no complete exchange scores 0.0 (nothing was achieved), with no judge
call.

* ``llm``: the LLM grades both per exchange and writes the reason;
* ``hybrid``: System One grades both (5 levels each), the LLM covering a failed call; the LLM writes the reason;
* ``system_one``: one request over the turns (role, content, tools called): a yes/no question (weight 2) and two
  5-level questions: ``(2 P + E1/4 + E2/4) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_turns
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import exchanges, tools_json, tools_text
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.goal_accuracy.names import GOAL_ACHIEVED, PLAN_FOLLOWED
from deepeval.metrics.goal_accuracy.prompts import GoalAccuracyTemplate
from deepeval.metrics.goal_accuracy.questions import GOAL_LEVELS, PLAN_LEVELS, GoalAccuracyQuestions
from deepeval.metrics.goal_accuracy.schema import GoalAccuracyReason, GoalScore, GoalSteps, PlanScore
from deepeval.models.structured import a_generate_structured

NO_EXCHANGE_REASON = (
    "The score is 0.00 because the conversation has no complete exchange (a user turn answered by the assistant), "
    "so no goal of the user was achieved."
)


def goal_and_steps(unit: Sequence[Any]) -> GoalSteps:
    """The user's goal (the leading user turns) and the assistant's steps (each later assistant turn, with the
    tools it called)."""
    goal = []
    for turn in unit:
        if turn.role != "user":
            break
        goal.append(turn.content)
    steps = []
    for turn in unit[1:]:
        if turn.role == "assistant":
            step = turn.content
            if turn.tools_called:
                step += f"\nTools called:\n{tools_text(turn.tools_called)}"
            steps.append(step)
    return GoalSteps(user_goal="\n".join(goal), steps_taken=steps)


class GoalAccuracyMetric(AgentJudgedMetric, BaseConversationalMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``turns``."""

    default_template = GoalAccuracyTemplate
    default_question_set = GoalAccuracyQuestions
    final_reason_schema = GoalAccuracyReason
    judged_what = "goal accuracy check"

    def __init__(
        self,
        threshold: float | None = 0.5,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        verbose_mode: bool = False,
        question_set: Any = None,
    ) -> None:
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
        return "Goal Accuracy"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def _degenerate(self, test_case: Any) -> Outcome | None:
        if not exchanges(test_case.turns):
            return Outcome(0.0, NO_EXCHANGE_REASON, {"exchanges": 0})
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        turns = []
        for turn in test_case.turns:
            entry: dict[str, Any] = {"role": turn.role, "content": turn.content}
            if turn.tools_called:
                entry["tools_called"] = tools_json(turn.tools_called)
            turns.append(entry)
        return {"turns": turns}, list(self.question_set.whole_metric())

    def _ask(self, kind: str, task: GoalSteps) -> ScoreAsk:
        template, questions = self.evaluation_template, self.question_set
        steps = "\n\n".join(task.steps_taken)
        if kind == "goal":
            return ScoreAsk(
                what="goal accuracy",
                prompt=lambda: template.get_accuracy_score(task=task.user_goal, steps_taken=steps),
                schema=GoalScore,
                instructions=questions.goal_judgement(),
                levels=list(GOAL_LEVELS),
                state={"task": task.user_goal, "steps_taken": list(task.steps_taken)},
                kind=GOAL_ACHIEVED,
            )
        return ScoreAsk(
            what="plan quality",
            prompt=lambda: template.get_plan_evaluation_score(task=task.user_goal, steps_taken=steps),
            schema=PlanScore,
            instructions=questions.plan_judgement(),
            levels=list(PLAN_LEVELS),
            state={"task": task.user_goal, "steps_taken": list(task.steps_taken)},
            kind=PLAN_FOLLOWED,
        )

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        tasks = [goal_and_steps(unit) for unit in exchanges(test_case.turns)]
        goals = await ctx.gather(*(decide_score(ctx, self._ask("goal", t)) for t in tasks))
        plans = await ctx.gather(*(decide_score(ctx, self._ask("plan", t)) for t in tasks))
        goal_mean = sum(g.score for g in goals) / len(goals)
        plan_mean = sum(p.score for p in plans) / len(plans)
        score = (goal_mean + plan_mean) / 2
        judged = [
            {
                "goal": t.user_goal,
                "goal_score": g.score,
                "goal_reason": g.reason,
                "plan_score": p.score,
                "plan_reason": p.reason,
                "decided_by": g.decided_by,
            }
            for t, g, p in zip(tasks, goals, plans, strict=True)
        ]
        ctx.log_verdicts("Exchanges", judged)
        reason = None
        if ctx.include_reason:
            assert ctx.llm is not None
            prompt = self.evaluation_template.get_final_reason(
                final_score=score,
                threshold=self.threshold,
                goal_evaluations="\n".join(f"Score: {g.score}, Reason: {g.reason}" for g in goals),
                plan_evalautions="\n".join(f"Score: {p.score}, Reason: {p.reason}" for p in plans),
            )
            reason = (await a_generate_structured(ctx.llm, prompt, self.final_reason_schema)).reason
        breakdown = {"exchanges": len(tasks), "goal_mean": goal_mean, "plan_mean": plan_mean}
        return Outcome(score, reason, breakdown)
