"""ToolCorrectnessMetric: did the agent call the tools it was expected to call?

The tool-calling score compares ``tools_called`` with ``expected_tools`` in code (:mod:`.scoring`: exact, ordered or
unordered, with ``evaluation_params`` adding input parameters and output); no judge is involved, so without
``available_tools`` the metric needs no LLM, no key and no network in any eval mode. With ``available_tools`` (and a
test case that is not multimodal), a judge also rates the tool *selection* (:mod:`deepeval.metrics._engine.
single_score`: LLM prompt, System One graded question, or hybrid) and the score is the smaller of the two, as in
deepeval 4.3.1.

**ours:** ``measure()`` returns the score (4.3.1's returns None when ``async_mode=True``); ``reason`` is None when
``include_reason=False`` (4.3.1 fills it anyway); the constructor needs no judge configuration unless
``available_tools`` is given (4.3.1 builds an OpenAI client at construction and raises without ``OPENAI_API_KEY``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode, parse_eval_mode
from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric
from deepeval.metrics._engine.judges import Judges, resolve_judges
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.single_score import ScoreAsk, ScoreOutcome, judged_score
from deepeval.metrics.result import MeasureResult
from deepeval.metrics.scoring import apply_strict
from deepeval.metrics.tool_correctness import reasons, scoring
from deepeval.metrics.tool_correctness.names import REQUIRED_PARAMS, TOOL_SELECTION
from deepeval.metrics.tool_correctness.prompts import (
    PROMPT_VERSION,
    TOOL_SELECTION_LEVELS,
    ToolCorrectnessTemplate,
    tools_text,
)
from deepeval.metrics.tool_correctness.schema import ToolSelectionScore
from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams


def _tool_list(tools: Any, what: str) -> list[ToolCall] | None:
    """``tools`` as ToolCalls (dicts accepted); None stays None.

    Raises:
        TypeError: not a list of ToolCall (or dicts that make one).
    """
    if tools is None:
        return None
    if isinstance(tools, (str, bytes)) or not isinstance(tools, Sequence):
        raise TypeError(f"{what} must be a list of ToolCall, got {type(tools).__name__}")
    out = []
    for index, tool in enumerate(tools):
        if isinstance(tool, ToolCall):
            out.append(tool)
        elif isinstance(tool, dict):
            out.append(ToolCall(**tool))
        else:
            raise TypeError(f"{what}[{index}] must be a ToolCall, got {type(tool).__name__}")
    return out


def _evaluation_params(params: Any) -> list[ToolCallParams]:
    """Raises ValueError: an entry that is not a ToolCallParams member (or its value)."""
    out = []
    for p in params or ():
        try:
            out.append(ToolCallParams(p))
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in ToolCallParams)
            raise ValueError(
                f"evaluation_params takes ToolCallParams members ({allowed}), got {p!r}"
            ) from None
    return out


def _tools_block(title: str, tools: Sequence[ToolCall]) -> str:
    if not tools:
        return f"{title}: []"
    body = ",\n".join("\n".join("    " + line for line in repr(t).splitlines()) for t in tools)
    return f"{title}:\n[\n{body}\n]"


class ToolCorrectnessMetric(JudgeFreeMetric):
    """Compares the tools an agent called with the tools it was expected to call (see the module docstring).

    Args:
        available_tools: the tools the agent could choose from; when given, a judge also rates the selection.
        threshold: minimum passing score (1 in strict mode).
        evaluation_params: also compare ``ToolCallParams.INPUT_PARAMETERS`` (share of agreeing keys) and/or
            ``ToolCallParams.OUTPUT`` (equal or not).
        should_exact_match: the called list must equal the expected one, position by position (score 1 or 0).
        should_consider_ordering: score the expected tools found in order (weighted longest common subsequence).
        model, system_one_model, eval_mode: the judges of the tool-selection check (unused without
            ``available_tools``).
        evaluation_template: overrides the tool-selection prompts (same static methods as
            :class:`~deepeval.metrics.tool_correctness.prompts.ToolCorrectnessTemplate`).

    Raises:
        ValueError: ``evaluation_params`` holds something that is not a ``ToolCallParams`` member; a bad threshold
            or eval mode.
        TypeError: ``available_tools`` is not a list of ``ToolCall``.
    """

    config_fields = (
        "evaluation_params",
        "should_exact_match",
        "should_consider_ordering",
        "available_tools",
    )

    def __init__(
        self,
        available_tools: list[ToolCall] | None = None,
        threshold: float | None = 0.5,
        evaluation_params: list[ToolCallParams] | None = None,
        model: Any = None,
        system_one_model: Any = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        should_exact_match: bool = False,
        should_consider_ordering: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
    ) -> None:
        super().__init__(
            threshold=threshold,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
        )
        self.available_tools = _tool_list(available_tools, "available_tools")
        self.evaluation_params = _evaluation_params(evaluation_params)
        self.should_exact_match = should_exact_match
        self.should_consider_ordering = should_consider_ordering
        self.eval_mode = None if eval_mode is None else parse_eval_mode(eval_mode, "the eval_mode argument")
        self.model_argument = model
        self.system_one_model_argument = system_one_model
        self.evaluation_template = evaluation_template or ToolCorrectnessTemplate
        self._judges: Judges | None = None
        self.model = model if not isinstance(model, str) else None
        self.system_one_model = system_one_model if not isinstance(system_one_model, str) else None

    @property
    def __name__(self) -> str:
        return "Tool Correctness"

    # -- the tool-calling score (no judge) ----------------------------------------------------------------------
    def tool_calling(self, called: Sequence[ToolCall], expected: Sequence[ToolCall]) -> tuple[float, str]:
        """The tool-calling score (strict mode applied) and its reason."""
        comparison = scoring.Comparison.of(self.evaluation_params)
        mismatches = scoring.type_mismatches(called, expected)
        if self.should_exact_match:
            score = scoring.exact_score(called, expected, comparison)
            reason = reasons.exact_reason(bool(score), called, expected, mismatches)
        elif self.should_consider_ordering:
            in_order, _ = scoring.weighted_lcs(called, expected, comparison)
            score = scoring.ordered_score(called, expected, comparison)
            reason = reasons.ordered_reason(score, in_order, called, expected, mismatches)
        else:
            score = scoring.unordered_score(called, expected, comparison)
            reason = reasons.unordered_reason(score, called, expected, mismatches)
        return apply_strict(score, self.strict_mode), reason

    def _selection_judged(self, test_case: LLMTestCase) -> bool:
        return bool(self.available_tools) and not test_case.multimodal

    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)
        called = _tool_list(test_case.tools_called, "tools_called") or []
        expected = _tool_list(test_case.expected_tools, "expected_tools") or []
        calling_score, calling_reason = self.tool_calling(called, expected)
        selection: ScoreOutcome | None = None
        if self._selection_judged(test_case):
            selection = await judged_score(
                self.judges(),
                self._selection_ask(test_case.input, called),
                metric_name=self.__name__,
                sequential=sequential,
            )
        selection_score = 1.0 if selection is None else selection.score
        selection_reason = reasons.NO_AVAILABLE_TOOLS if selection is None else selection.reason
        breakdown = {"tool_calling": calling_score, "tool_selection": selection_score}
        steps = [
            ("Expected tools", _tools_block("Expected Tools", expected)),
            ("Tools called", _tools_block("Tools Called", called)),
            ("Available tools", _tools_block("Available Tools", self.available_tools or [])),
            ("Tool calling", f"score {calling_score}: {calling_reason}"),
            (
                "Tool selection",
                f"score {selection_score} ({'not judged' if selection is None else selection.decided_by}): {selection_reason}",
            ),
        ]
        return self.value(
            Computed(
                score=min(calling_score, selection_score),
                reason=reasons.final_reason(calling_reason, selection_reason),
                steps=steps,
                breakdown=breakdown,
                confidence=None if selection is None else selection.confidence,
                fallback_reason=None if selection is None else selection.fallback_reason,
                evaluation_model=None if selection is None else selection.judge,
            )
        )

    # -- the tool-selection check (a judge) -----------------------------------------------------------------------
    def judges(self) -> Judges:
        """The judges of the tool-selection check, resolved once (on the first measure that needs them)."""
        if self._judges is None:
            self._judges = resolve_judges(
                eval_mode=self.eval_mode,
                model=self.model_argument,
                system_one_model=self.system_one_model_argument,
                extractor=None,
                metric_name=self.__name__,
            )
        return self._judges

    def _selection_ask(self, user_input: str, called: Sequence[ToolCall]) -> ScoreAsk:
        available = self.available_tools or []
        template = self.evaluation_template
        return ScoreAsk(
            what="tool selection",
            prompt=lambda: template.get_tool_selection_score(
                user_input=user_input,
                tools_called=tools_text(called),
                available_tools=tools_text(available),
            ),
            schema=ToolSelectionScore,
            instructions=template.tool_selection_question(),
            levels=list(TOOL_SELECTION_LEVELS),
            state={
                "input": user_input,
                "tools_called": [t.model_dump(mode="json", exclude_none=True) for t in called],
                "available_tools": [t.model_dump(mode="json", exclude_none=True) for t in available],
            },
            kind=TOOL_SELECTION,
        )

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        if self.available_tools:  # the judged check: its mode, judges and prompts change the result
            from deepeval._digest import content_digest
            from deepeval.config.settings import get_settings
            from deepeval.models.plan import plan_judges

            try:
                plan = plan_judges(
                    eval_mode=self.eval_mode,
                    model=self.model_argument,
                    system_one_model=self.system_one_model_argument,
                    extractor=None,
                    settings=get_settings(),
                )
                cfg["eval_mode"], cfg["judges"] = plan.mode.value, plan.key_names()
            except Exception as err:  # the measure reports it; the key must still be computable
                cfg["eval_mode"], cfg["judges"] = None, f"unresolved: {type(err).__name__}"
            cfg["prompt_version"] = getattr(self.evaluation_template, "PROMPT_VERSION", PROMPT_VERSION)
            cfg["prompt_digest"] = content_digest(self.evaluation_template)
        return cfg
