"""ToolUseMetric: over a conversation, whether the assistant chose the right tools among ``available_tools`` and
passed them the right arguments, as deepeval 4.3.1 measures it.

The turns are cut into exchanges (as goal accuracy cuts them). Per exchange two graded judgements (0-1): tool
selection and argument correctness. Score = min(mean selection grade, mean argument grade); no exchange: 0.0, with
no judge call. The reason is the two explanations (selection, then arguments), one per line.

* ``llm``: the LLM grades both per exchange and writes both explanations;
* ``hybrid``: System One grades both (5 levels each), the LLM covering a failed call; the LLM explains;
* ``system_one``: one request over the turns (role, content, tools called) and ``available_tools``: two yes/no
  questions, ``(P1 + P2) / 2``;
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
from deepeval.metrics._engine.single_score import ScoreAsk, ScoreOutcome, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import exchanges, tools_json, tools_text
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.metrics.tool_use.names import ARGUMENTS, SELECTION
from deepeval.metrics.tool_use.prompts import ToolUseTemplate
from deepeval.metrics.tool_use.questions import ARGUMENT_LEVELS, SELECTION_LEVELS, ToolUseQuestions
from deepeval.metrics.tool_use.schema import (
    ArgumentCorrectnessScore,
    Reason,
    ToolSelectionScore,
    UserInputAndTools,
)
from deepeval.models.structured import a_generate_structured
from deepeval.test_case import ToolCall

NO_EXCHANGE_REASON = (
    "The score is 0.00 because the conversation has no complete exchange (a user turn answered by the assistant), "
    "so no tool use can be judged."
)


def exchange_tools(unit: Sequence[Any], available: str) -> UserInputAndTools:
    """The exchange as deepeval 4.3.1 hands it to the judge: the leading user turns, the assistant turns after
    the first turn, and every tool they called."""
    user: list[str] = []
    for turn in unit:
        if turn.role != "user":
            break
        user.append(turn.content)
    assistant: list[str] = []
    called: list[ToolCall] = []
    for turn in unit[1:]:
        if turn.role == "assistant":
            assistant.append(turn.content)
            called.extend(turn.tools_called or [])
    return UserInputAndTools(
        user_messages="\n".join(user),
        assistant_messages="\n".join(assistant),
        tools_called=tools_text(called) if called else "",
        available_tools=available,
        tools_used=bool(called),
    )


class ToolUseMetric(AgentJudgedMetric, BaseConversationalMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``turns`` and ``available_tools``."""

    default_template = ToolUseTemplate
    default_question_set = ToolUseQuestions
    judged_what = "tool use check"

    def __init__(
        self,
        available_tools: list[ToolCall],
        threshold: float | None = 0.5,
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
        if isinstance(available_tools, (str, bytes)) or not all(
            isinstance(t, ToolCall) for t in available_tools
        ):
            raise TypeError("available_tools must be a list of ToolCall")
        self.available_tools = list(available_tools)
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
        return "Tool Use"

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg["available_tools"] = tools_json(self.available_tools)
        return cfg

    def _units(self, test_case: Any) -> list[UserInputAndTools]:
        available = tools_text(self.available_tools)
        return [exchange_tools(u, available) for u in exchanges(test_case.turns) if len(u) >= 2]

    def _degenerate(self, test_case: Any) -> Outcome | None:
        if not self._units(test_case):
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
        state = {"turns": turns, "available_tools": tools_json(self.available_tools)}
        return state, list(self.question_set.whole_metric())

    def _ask(self, kind: str, unit: UserInputAndTools) -> ScoreAsk:
        template = self.evaluation_template
        material = {
            "user_input": unit.user_messages,
            "assistant_messages": unit.assistant_messages,
            "tools_called": unit.tools_called,
            "available_tools": unit.available_tools,
        }
        state = {
            "user_messages": unit.user_messages,
            "assistant_messages": unit.assistant_messages,
            "tools_called": unit.tools_called,
            "available_tools": unit.available_tools,
        }
        if kind == "selection":
            return ScoreAsk(
                what="tool selection",
                prompt=lambda: template.get_tool_selection_score(**material),
                schema=ToolSelectionScore,
                instructions=self.question_set.selection(),
                levels=list(SELECTION_LEVELS),
                state=state,
                kind=SELECTION,
            )
        return ScoreAsk(
            what="argument correctness",
            prompt=lambda: template.get_argument_correctness_score(**material),
            schema=ArgumentCorrectnessScore,
            instructions=self.question_set.arguments(),
            levels=list(ARGUMENT_LEVELS),
            state=state,
            kind=ARGUMENTS,
        )

    async def _final_reason(
        self, ctx: MeasureContext, method: str, grades: list[ScoreOutcome], score: float
    ) -> str:
        assert ctx.llm is not None
        text = "".join(f"\nScore: {g.score}\nReason: {g.reason}\n" for g in grades)
        prompt = getattr(self.evaluation_template, method)(
            all_scores_and_reasons=text, final_score=score, threshold=self.threshold
        )
        return (await a_generate_structured(ctx.llm, prompt, Reason)).reason

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        units = self._units(test_case)
        selection = await ctx.gather(*(decide_score(ctx, self._ask("selection", u)) for u in units))
        arguments = await ctx.gather(*(decide_score(ctx, self._ask("arguments", u)) for u in units))
        selection_mean = sum(g.score for g in selection) / len(selection)
        argument_mean = sum(g.score for g in arguments) / len(arguments)
        score = min(selection_mean, argument_mean)
        ctx.log(
            "Exchanges",
            [
                {
                    "user": u.user_messages,
                    "selection": s.score,
                    "arguments": a.score,
                    "decided_by": s.decided_by,
                }
                for u, s, a in zip(units, selection, arguments, strict=True)
            ],
        )
        final: str | None = None
        if ctx.include_reason:
            first, second = await ctx.gather(
                self._final_reason(ctx, "get_tool_selection_final_reason", list(selection), score),
                self._final_reason(ctx, "get_tool_argument_final_reason", list(arguments), score),
            )
            final = f"{first}\n{second}"
        breakdown = {
            "exchanges": len(units),
            "tool_selection": selection_mean,
            "argument_correctness": argument_mean,
        }
        return Outcome(score, final, breakdown)
