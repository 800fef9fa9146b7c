"""The multi-turn RAG metrics (TurnContextualPrecision, TurnContextualRecall, TurnContextualRelevancy,
TurnFaithfulness): a single-turn RAG metric measured over sliding windows of a conversation, as deepeval 4.3.1 does.

A conversation is cut into **unit interactions** (a user message, and what follows it up to the next user message
after an assistant turn; a trailing unit counts only when it ends with an assistant turn). For unit ``i`` the
**window** is units ``max(0, i - window_size + 1) .. i``; its user text is the window's user turns (each as
``"\\n<content> "``, 4.3.1's form), its assistant text the assistant turns (``"\\n<content>"``), and its retrieval
context every assistant turn's ``retrieval_context`` in order. Each window is scored by the single-turn metric on a
test case built from it (the metric's own prompts, verdicts, hybrid and offline rules apply per window); a window
without retrieval context scores 1 with no judge call; the score is the mean over windows (no window: 1). The reason
is written from the windows' reasons (one more LLM call; without an LLM, from the scores).

Ours, where 4.3.1 differs: strict mode zeroes the final score below 1 (4.3.1 zeroes each window below 1 and averages,
so a strict score of 0.5 is possible there); a window without retrieval context is never sent to a judge (4.3.1's
TurnFaithfulness still asks for claims and verdicts there); a conversation without retrieval context anywhere
scores 1 with no judge call (4.3.1 still writes a final reason with the LLM).
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from deepeval._digest import content_digest
from deepeval.config.eval_mode import EvalMode
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.extractor import LLMExtractor
from deepeval.metrics._engine.judges import Judges
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import has_words, require_turns
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics._engine.unmeasured import offline_refusal
from deepeval.metrics.base_metric import BaseConversationalMetric
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor
from deepeval.models.resolve import is_embedded
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion
from deepeval.test_case import LLMTestCase

__all__ = ["TurnWindowMetric", "Window", "unit_interactions", "windows"]


@dataclass(frozen=True)
class Window:
    """One window of a conversation: its user text, assistant text and retrieval context (see module docstring)."""

    index: int
    user: str
    assistant: str
    retrieval_context: list[str]


def unit_interactions(turns: Sequence[Any]) -> list[list[Any]]:
    """The conversation cut into unit interactions (4.3.1's rule): a new unit starts at a user turn that follows an
    assistant turn once the current unit has a user turn; the last unit counts only when it has a user turn, more
    than one turn, and ends with an assistant turn."""
    units: list[list[Any]] = []
    current: list[Any] = []
    has_user = False
    for turn in turns:
        if current and current[-1].role == "assistant" and turn.role == "user" and has_user:
            units.append(current)
            current = [turn]
            continue
        current.append(turn)
        has_user = has_user or turn.role == "user"
    if len(current) > 1 and current[-1].role == "assistant" and has_user:
        units.append(current)
    return units


def _node_text(node: Any) -> str:
    return str(getattr(node, "context", node))


def windows(turns: Sequence[Any], window_size: int) -> list[Window]:
    """One window per unit interaction: that unit and up to ``window_size - 1`` units before it."""
    units = unit_interactions(turns)
    size = max(1, int(window_size))
    out: list[Window] = []
    for i in range(len(units)):
        span = [t for unit in units[max(0, i - size + 1) : i + 1] for t in unit]
        out.append(
            Window(
                index=i,
                user="".join(f"\n{t.content} " for t in span if t.role == "user"),
                assistant="".join(f"\n{t.content}" for t in span if t.role != "user"),
                retrieval_context=[
                    _node_text(n) for t in span if t.role != "user" for n in (t.retrieval_context or [])
                ],
            )
        )
    return out


def final_reason_prompt(what: str) -> Any:
    """The final-reason prompt of a turn metric measuring ``what`` (e.g. "contextual precision"): a template method
    ``generate_final_reason(score, reasons)`` (our wording)."""

    def generate_final_reason(score: float, reasons: Sequence[str]) -> str:
        from deepeval.metrics.delimit import DATA_NOTICE, declare_labels, quote_list

        declare_labels("window reasons")
        return f"""Explain the {what} score of a conversation in two or three sentences.

The conversation was scored window by window (each window: a user message with the turns before it, judged on the
documents the assistant retrieved); the score is the mean of the window scores. You get each window's own explanation.
Say what lowers the score across the conversation, or that every window scores well when it is 1.

Reply with JSON only, in this form (single quotes inside the text): {{"reason": "The score is <score> because ..."}}

{DATA_NOTICE}

{quote_list("window reasons", [str(r) for r in reasons], indent=None)}

The score is {score:.2f}."""

    return staticmethod(generate_final_reason)


class TurnWindowMetric(EngineMetric, BaseConversationalMetric):
    """Base of the multi-turn RAG metrics (see module docstring). A subclass sets ``single_turn`` (the single-turn
    metric class measuring each window), ``needs_expected_outcome``, ``default_template`` (a subclass of the
    single-turn template with ``generate_final_reason``), ``default_question_set`` (``whole_metric(turns,
    expected_outcome)`` for system_one mode) and :meth:`window_case`."""

    single_turn: ClassVar[type[EngineMetric]]
    needs_expected_outcome: ClassVar[bool] = False
    #: the reason of a window without retrieval context (score 1, no judge call)
    empty_window_reason: ClassVar[str] = (
        "The window holds no retrieval context, so there is nothing to judge."
    )

    #: how many unit interactions a window holds (4.3.1's default 10)
    window_size: int = 10

    def __init__(
        self,
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        window_size: int = 10,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        """deepeval 4.3.1's constructor of the turn RAG metrics, in its order (``window_size`` after
        ``verbose_mode``); a metric with more options (TurnFaithfulness) has its own."""
        self.window_size = window_size
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
            extractor=extractor,
        )

    def window_case(self, window: Window, test_case: Any) -> LLMTestCase:
        raise NotImplementedError

    def single_turn_options(self) -> dict[str, Any]:
        """Options of the single-turn metric beyond the shared ones (``truths_extraction_limit``...)."""
        return {}

    def _inner(self) -> EngineMetric:
        """The single-turn metric that scores a window: this metric's options and template, no threshold."""
        return self.single_turn(
            threshold=None,
            include_reason=self.include_reason,
            evaluation_template=self.evaluation_template,
            **self.single_turn_options(),
        )

    def cache_config(self) -> dict[str, Any]:
        """The engine's key plus the single-turn metric's System One questions (its hybrid unit question decides each
        window), so a change to them is a change of this metric's key too."""
        cfg = super().cache_config()
        inner = self._inner()
        cfg["window_question_set_version"] = inner.question_set_version
        cfg["window_question_set_digest"] = content_digest(inner.question_set)
        return cfg

    # -- the engine's hooks ----------------------------------------------------------------------------------------
    def judges(self) -> Judges:
        """The engine's judges, refused up front where the embedded judge alone has no measured answer: system_one
        mode (whole-conversation questions), or a window question no offline tier answers.

        Raises:
            ConfigurationError: names what to configure.
        """
        judges = super().judges()
        if judges.llm is None and is_embedded(judges.system_one):
            from deepeval.metrics._engine.pipeline import PipelineMetric

            # the window metric's own rule decides what its window question needs offline (one place for it)
            inner = self._inner()
            gaps = inner._offline_gaps(judges) if isinstance(inner, PipelineMetric) else []
            if judges.mode is EvalMode.SYSTEM_ONE or gaps:
                hint = inner._reader_hint(judges) if isinstance(inner, PipelineMetric) else ""
                self._judges = None
                raise offline_refusal(self.__name__, "its questions", judges.mode, hint)
        return judges

    def _check_params(self, test_case: Any) -> None:
        require_turns(test_case, self.__name__)
        if self.needs_expected_outcome and test_case.expected_outcome is None:
            raise MissingTestCaseParamsError(
                f"{self.__name__} needs the test-case field(s) expected_outcome, which are None"
            )

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        return LLMExtractor(llm)

    def _degenerate(self, test_case: Any) -> Outcome | None:
        spans = windows(test_case.turns, self.window_size)
        if not any(has_words(node) for w in spans for node in w.retrieval_context):
            return Outcome(
                1.0,
                "The score is 1.00 because no assistant turn holds retrieval context, so there is nothing to judge.",
                {"windows": len(spans), "windows_judged": 0},
            )
        return None

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        turns = [
            {
                "role": t.role,
                "content": t.content,
                **(
                    {"retrieval_context": [_node_text(n) for n in t.retrieval_context]}
                    if t.retrieval_context
                    else {}
                ),
            }
            for t in test_case.turns
        ]
        state: dict[str, Any] = {"turns": turns}
        if self.needs_expected_outcome:
            state["expected_outcome"] = test_case.expected_outcome
        return state, list(self.question_set.whole_metric(state))

    # -- llm / hybrid ----------------------------------------------------------------------------------------------
    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        inner = self._inner()
        spans = windows(test_case.turns, self.window_size)

        async def one(window: Window) -> tuple[Window, Outcome, MeasureContext | None]:
            if not any(has_words(node) for node in window.retrieval_context):
                return window, Outcome(1.0, self.empty_window_reason, {}), None
            case = self.window_case(window, test_case)
            child = dataclasses.replace(ctx, sections=[], verdicts=[], confidences=[], fallback_reasons=[])
            outcome = inner._degenerate(case) or await inner._evaluate(case, child)
            return window, outcome, child

        results = await ctx.gather(*(one(w) for w in spans))
        per_window: list[dict[str, Any]] = []
        for window, outcome, child in results:
            row = {"window": window.index + 1, "score": outcome.score, "reason": outcome.reason}
            if child is not None:
                ctx.confidences += child.confidences
                ctx.fallback_reasons += child.fallback_reasons
                ctx.llm_used = ctx.llm_used or child.llm_used
                if child.system_one_used:
                    ctx.system_one_used = True
                    ctx.system_one_version = child.system_one_version or ctx.system_one_version
                row["verdicts"] = child.verdicts
                for title, value in child.sections:
                    ctx.log(f"Window {window.index + 1}: {title}", value)
            per_window.append(row)
        ctx.log_verdicts("Windows", per_window)
        score = statistics.fmean(r["score"] for r in per_window) if per_window else 1.0
        breakdown = {
            "windows": len(per_window),
            "windows_judged": sum(1 for _, _, child in results if child is not None),
            "window_scores": [r["score"] for r in per_window],
        }
        reason = await self._final_reason(ctx, score, per_window) if ctx.include_reason else None
        return Outcome(score, reason, breakdown)

    async def _final_reason(self, ctx: MeasureContext, score: float, per_window: list[dict[str, Any]]) -> str:
        reasons = [str(r["reason"]) for r in per_window if r.get("reason")]
        if ctx.llm is None or not per_window:
            scores = ", ".join(f"{r['score']:.2f}" for r in per_window) or "none"
            return f"The score is {score:.2f}, the mean of the window scores ({scores})."
        method = self.evaluation_template.generate_final_reason
        prompt = call_template(
            method, score=score, final_score=score, reasons=reasons, success=score >= (self.threshold or 0)
        )
        reply: Any = await a_generate_structured(ctx.llm, prompt, self.reason_schema)
        return str(reply.reason)


def whole_conversation_questions(
    specs: Sequence[tuple[str, float, str, str]],
    levels: Sequence[str],
    state: dict[str, Any],
    kinds: Sequence[str],
) -> list[WeightedQuestion]:
    """The three whole-conversation questions of a turn metric: ``specs`` = (id, weight, text, label) for two nouls
    and a score (the last, over ``levels``), each of kind ``kinds[i]``; the state's fields ride in ``data``."""
    out: list[WeightedQuestion] = []
    for (qid, weight, text, label), kind in zip(specs, kinds, strict=True):
        question: NoulQuestion | ScoreQuestion = (
            ScoreQuestion(instructions=text, levels=list(levels), kind=kind, data=dict(state))
            if qid == specs[-1][0]
            else NoulQuestion(instructions=text, kind=kind, data=dict(state))
        )
        out.append(WeightedQuestion(qid, weight, question, label))
    return out
