"""MCPUseMetric: whether an agent chose the right MCP primitives (tools, resources, prompts) among those its
``mcp_servers`` offer and passed them the right arguments, as deepeval 4.3.1 measures it.

Two graded judgements (0-1): primitive choice and argument correctness; score = the smaller. The reason is the two
explanations, in 4.3.1's layout (``[\\n\\t<choice>\\n\\t<arguments>\\n]\\n``). The primitives used are
``mcp_tools_called`` (else ``tools_called``), ``mcp_resources_called`` and ``mcp_prompts_called``.

* ``llm``: the LLM grades both; ``hybrid``: System One grades both (4 levels each), the LLM covering a failed call;
* ``system_one``: one request, three questions (yes/no weight 2, yes/no weight 1, 4-level score):
  ``(2 P1 + P2 + E/3) / 4``;
* no judge configured: a ``ConfigurationError`` naming what to configure.
"""

from __future__ import annotations

import json
from typing import Any

from deepeval.metrics._engine.agent_metric import AgentJudgedMetric
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.single_score import ScoreAsk, decide_score
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.agent_trace import primitive_state
from deepeval.metrics.mcp_use.names import ARGUMENTS, PRIMITIVES, REQUIRED_PARAMS
from deepeval.metrics.mcp_use.prompts import MCPUseTemplate
from deepeval.metrics.mcp_use.questions import ARGUMENT_LEVELS, PRIMITIVE_LEVELS, MCPUseQuestions
from deepeval.metrics.mcp_use.schema import MCPArgsScore, MCPPrimitivesScore


def servers_state(servers: Any) -> list[dict[str, Any]]:
    out = []
    for server in servers or []:
        entry: dict[str, Any] = {"server_name": server.server_name}
        for key in ("available_tools", "available_resources", "available_prompts"):
            items = getattr(server, key) or []
            if items:
                entry[key] = [primitive_state(p) for p in items]
        out.append(entry)
    return out


def calls_state(test_case: Any) -> dict[str, Any]:
    calls = {
        "mcp_tools_called": test_case.mcp_tools_called or test_case.tools_called or [],
        "mcp_resources_called": test_case.mcp_resources_called or [],
        "mcp_prompts_called": test_case.mcp_prompts_called or [],
    }
    return {key: [primitive_state(c) for c in value] for key, value in calls.items() if value}


class MCPUseMetric(AgentJudgedMetric):
    """See the module docstring. Score in [0, 1]; higher is better. Requires ``input``, ``actual_output`` and
    ``mcp_servers``."""

    default_template = MCPUseTemplate
    default_question_set = MCPUseQuestions
    judged_what = "MCP use check"

    @property
    def __name__(self) -> str:
        return "MCP Use"

    def _check_params(self, test_case: Any) -> None:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)

    def _state(self, test_case: Any) -> dict[str, Any]:
        return {
            "input": test_case.input,
            "actual_output": test_case.actual_output,
            "mcp_servers": servers_state(test_case.mcp_servers),
            "primitives_used": calls_state(test_case),
        }

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.system_one_judge()
        return self._state(test_case), list(self.question_set.whole_metric())

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        state = self._state(test_case)
        material = {
            "input": test_case.input,
            "actual_output": test_case.actual_output,
            "available_primitives": json.dumps(state["mcp_servers"], indent=2, ensure_ascii=False),
            "primitives_used": json.dumps(state["primitives_used"], indent=2, ensure_ascii=False),
        }
        template = self.evaluation_template
        choice, arguments = await ctx.gather(
            decide_score(
                ctx,
                ScoreAsk(
                    what="MCP primitive choice",
                    prompt=lambda: template.get_primitive_correctness_prompt(**material),
                    schema=MCPPrimitivesScore,
                    instructions=self.question_set.primitives(),
                    levels=list(PRIMITIVE_LEVELS),
                    state=state,
                    kind=PRIMITIVES,
                ),
            ),
            decide_score(
                ctx,
                ScoreAsk(
                    what="MCP argument correctness",
                    prompt=lambda: template.get_mcp_argument_correctness_prompt(**material),
                    schema=MCPArgsScore,
                    instructions=self.question_set.arguments(),
                    levels=list(ARGUMENT_LEVELS),
                    state=state,
                    kind=ARGUMENTS,
                ),
            ),
        )
        ctx.log("Primitive choice", {"score": choice.score, "reason": choice.reason})
        ctx.log("Argument correctness", {"score": arguments.score, "reason": arguments.reason})
        reason = f"[\n\t{choice.reason}\n\t{arguments.reason}\n]\n"
        breakdown = {
            "primitives": choice.score,
            "arguments": arguments.score,
            "decided_by": choice.decided_by,
        }
        return Outcome(min(choice.score, arguments.score), reason, breakdown)
