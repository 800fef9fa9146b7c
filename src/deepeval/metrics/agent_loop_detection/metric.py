"""AgentLoopDetectionMetric: 1.0 for a clean agent run, lower for repeated tool calls, stagnating reasoning and
recursive call paths (:mod:`.signals`), from the run's trace. Judge-free.

The trace is the test case's ``_trace_dict`` (deepeval 4.3.1's private attribute, a nested span dict): component
evaluation (``evals_iterator`` with ``@observe``) sets it from our spans for every metric whose ``requires_trace``
is true, and a test case built by hand may set it (``test_case._trace_dict = {...}``) as with 4.3.1.

**ours:** without a trace the measure raises ``MissingTestCaseParamsError`` saying how to provide one; 4.3.1
returns a score of 0.0 (a failure nobody measured) with the reason "No trace data found".
"""

from __future__ import annotations

from typing import Any

from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics.agent_loop_detection import signals
from deepeval.metrics.agent_loop_detection.names import REQUIRED_PARAMS

NO_TRACE_HELP = (
    "needs the agent's trace: run the app inside `for golden in dataset.evals_iterator(): ...` with "
    "@observe-decorated functions (the metric on an @observe(metrics=[...]) span or in evals_iterator(metrics=...)), "
    "or set test_case._trace_dict to a nested span dict (name, type, input, output, children)"
)


class AgentLoopDetectionMetric(JudgeFreeMetric):
    """See the module docstring.

    Args:
        repetition_threshold: identical tool calls at which repetition scores 0.5 (twice as many: 0.0).
        similarity_threshold: similarity of consecutive LLM outputs at which stagnation scores 0.5 (above 0.95: 0.0).
        check_tool_repetition, check_reasoning_stagnation, check_call_graph_cycles: which signals count.

    Raises:
        ValueError: ``repetition_threshold`` below 1 or ``similarity_threshold`` outside [0, 1].
    """

    requires_trace = True
    config_fields = (
        "repetition_threshold",
        "similarity_threshold",
        "check_tool_repetition",
        "check_reasoning_stagnation",
        "check_call_graph_cycles",
    )

    def __init__(
        self,
        threshold: float | None = 0.5,
        repetition_threshold: int = 3,
        similarity_threshold: float = 0.85,
        check_tool_repetition: bool = True,
        check_reasoning_stagnation: bool = True,
        check_call_graph_cycles: bool = True,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
    ) -> None:
        super().__init__(
            threshold=threshold,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
        )
        if (
            isinstance(repetition_threshold, bool)
            or not isinstance(repetition_threshold, int)
            or repetition_threshold < 1
        ):
            raise ValueError(
                f"repetition_threshold must be a whole number of calls >= 1, got {repetition_threshold!r}"
            )
        if (
            isinstance(similarity_threshold, bool)
            or not isinstance(similarity_threshold, (int, float))
            or not (0.0 <= similarity_threshold <= 1.0)
        ):
            raise ValueError(
                f"similarity_threshold must be a number from 0 to 1, got {similarity_threshold!r}"
            )
        self.repetition_threshold = repetition_threshold
        self.similarity_threshold = float(similarity_threshold)
        self.check_tool_repetition = check_tool_repetition
        self.check_reasoning_stagnation = check_reasoning_stagnation
        self.check_call_graph_cycles = check_call_graph_cycles

    @property
    def __name__(self) -> str:
        return "Agent Loop Detection"

    def _compute(self, test_case: Any) -> Computed:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)
        trace = getattr(test_case, "_trace_dict", None)
        if not isinstance(trace, dict):
            raise MissingTestCaseParamsError(f"{self.__name__} {NO_TRACE_HELP}")
        spans = signals.all_spans(trace)
        checked = {
            "tool_repetition": self.check_tool_repetition,
            "reasoning_stagnation": self.check_reasoning_stagnation,
            "call_graph_cycles": self.check_call_graph_cycles,
        }
        results = {
            "tool_repetition": (1.0, "Tool repetition not checked.")
            if not checked["tool_repetition"]
            else signals.tool_repetition(
                [s for s in spans if s.get("type") == "tool"], self.repetition_threshold
            ),
            "reasoning_stagnation": (1.0, "Reasoning stagnation not checked.")
            if not checked["reasoning_stagnation"]
            else signals.reasoning_stagnation(
                [s for s in spans if s.get("type") == "llm"], self.similarity_threshold
            ),
            "call_graph_cycles": (1.0, "Call graph cycles not checked.")
            if not checked["call_graph_cycles"]
            else signals.call_graph_cycle(trace),
        }
        scores = {k: v[0] for k, v in results.items()}
        score = signals.combine(scores, checked)
        if score == 1.0:
            reason = "No loop patterns detected."
        else:
            reason = " ".join(text for k, (value, text) in results.items() if checked[k] and value < 1.0)
        steps = [(k.replace("_", " ").capitalize(), f"{v[0]} ({v[1]})") for k, v in results.items()]
        steps.append(("Spans", f"{len(spans)} in the trace"))
        return Computed(score=score, reason=reason, steps=steps, breakdown=scores)
