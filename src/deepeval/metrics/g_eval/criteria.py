"""The criteria metrics' shared measure (:class:`CriteriaMetric`): ``GEval`` and ``ConversationalGEval`` are the same
algorithm over different test cases, in every eval mode.

Facts from deepeval 4.3.1 (its behaviour is the reference; the text is ours):

* constructor ``GEval(name, evaluation_params=None, criteria=None, evaluation_steps=None, rubric=None,
  model=None, threshold=0.5, top_logprobs=20, async_mode=True, strict_mode=False, verbose_mode=False,
  _include_g_eval_suffix=True, flaky=False, evaluation_template=GEvalTemplate)``; ``__name__`` is
  ``"<name> [GEval]"`` (just ``name`` without the suffix);
* ``evaluation_params=[]`` is a ``ValueError``; criteria and steps are checked at construction when either is
  given (blank criteria, an empty steps list), and at measure when both are missing (``ValueError: Either
  'criteria' or 'evaluation_steps' must be provided.``);
* ``llm`` mode: the LLM writes 3-4 steps from the criteria (unless steps are given), then scores the test case on
  the rubric's range (0-10 without a rubric) and gives a reason; the score is normalised ``(s - low) / (high -
  low)``. A judge that exposes token log-probabilities gives the probability-weighted score over the score
  token's alternatives (:func:`deepeval.models.logprobs.weighted_score`); strict mode asks for 0 or 1 and uses it
  as is.

**ours:**

* steps written from criteria are cached by content (judge + steps prompt) in the process: a second measure or
  run with the same criteria sends no steps request, and concurrent test cases share one request;
* a score outside the range, or no number, is re-asked once and then an error (deepeval returns a score
  outside [0, 1]); the weighted score leaves out alternatives outside the range;
* the log-probability path serves every OpenAI-compatible client of ours (OpenAI, local servers, GGUF), not only
  OpenAI; a server that refuses log-probabilities gets the plain structured call (and is remembered);
* ``eval_mode`` / ``system_one_model`` (deepeval's GEval never asks System One): ``hybrid`` = the LLM writes the
  steps and the reason, System One answers one score question (:mod:`deepeval.metrics.g_eval.questions`), the LLM
  scores instead when System One fails with a fallback kind; ``system_one`` = that question only, a reason built
  from the answer. The embedded offline judge cannot grade free criteria: in ``system_one`` mode (or ``hybrid``
  without an LLM) that is a ``ConfigurationError`` naming what to configure, never a similarity number.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, ClassVar

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import (
    ConfidentAIRequiredError,
    ConfigurationError,
    ErrorKind,
    JudgeError,
    StructuredOutputError,
    SystemOneError,
)
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.decisions import FALLBACK_KINDS
from deepeval.metrics._engine.judges import NO_LLM_HELP, Judges, SyncLLM
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics.g_eval.questions import ScoreLevels, score_levels
from deepeval.metrics.g_eval.rubric import (
    Rubric,
    format_rubric,
    normalise,
    score_range,
    sorted_rubric,
    validate_criteria_and_evaluation_steps,
)
from deepeval.metrics.g_eval.schema import Reason, ReasonScore, Steps
from deepeval.metrics.result import MeasureResult, Usage
from deepeval.metrics.scoring import apply_strict
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.logprobs import SupportsLogprobs, weighted_score
from deepeval.models.resolve import is_embedded
from deepeval.models.structured import a_generate_structured, parse_json_text, run_ladder
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.system_one.schema import SystemOneAnswers
from deepeval.models.usage import counted_call, record_usage
from deepeval.test_case import SingleTurnParams

#: field names as the prompts show them (deepeval's labels)
PARAM_LABELS: dict[SingleTurnParams, str] = {
    SingleTurnParams.INPUT: "Input",
    SingleTurnParams.ACTUAL_OUTPUT: "Actual Output",
    SingleTurnParams.EXPECTED_OUTPUT: "Expected Output",
    SingleTurnParams.CONTEXT: "Context",
    SingleTurnParams.RETRIEVAL_CONTEXT: "Retrieval Context",
    SingleTurnParams.METADATA: "Metadata",
    SingleTurnParams.TAGS: "Tags",
    SingleTurnParams.EXPECTED_TOOLS: "Expected Tools",
    SingleTurnParams.TOOLS_CALLED: "Tools Called",
    SingleTurnParams.MCP_SERVERS: "MCP Servers",
    SingleTurnParams.MCP_TOOLS_CALLED: "MCP Tools Called",
    SingleTurnParams.MCP_RESOURCES_CALLED: "MCP Resources Called",
    SingleTurnParams.MCP_PROMPTS_CALLED: "MCP Prompts Called",
}

NO_TRACE_HELP = (
    "The '{name}' metric has no evaluation_params, so it would evaluate a trace, but this test case has none. "
    "Pass evaluation_params (e.g. [SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT]) to evaluate a plain "
    "LLMTestCase."
)

# -- steps cache (in the process; see the module docstring) -----------------------------------------------------------
_STEPS_MAX = 512
_steps_cache: OrderedDict[str, tuple[str, ...]] = OrderedDict()
_steps_lock = threading.Lock()
_steps_in_flight: dict[tuple[str, int], asyncio.Future[tuple[str, ...]]] = {}
#: judges whose server refused log-probabilities once (by judge name): they get the plain structured call
_no_logprobs: set[str] = set()


def clear_steps_cache() -> None:
    """Forget every cached set of evaluation steps (tests; a changed judge behind the same name)."""
    with _steps_lock:
        _steps_cache.clear()
        _no_logprobs.clear()


def _cached_steps(key: str) -> tuple[str, ...] | None:
    with _steps_lock:
        steps = _steps_cache.get(key)
        if steps is not None:
            _steps_cache.move_to_end(key)
        return steps


def _store_steps(key: str, steps: tuple[str, ...]) -> None:
    with _steps_lock:
        _steps_cache[key] = steps
        _steps_cache.move_to_end(key)
        while len(_steps_cache) > _STEPS_MAX:
            _steps_cache.popitem(last=False)


async def written_steps(llm: DeepEvalBaseLLM, prompt: str, *, log: Any = None) -> tuple[str, ...]:
    """The evaluation steps ``llm`` writes for the steps ``prompt``: from the process cache (by judge and prompt
    content) when there, else one request, shared by every measure of this event loop that asks meanwhile."""
    key = hashlib.sha256(f"{judge_name(llm)}\x00{prompt}".encode()).hexdigest()
    cached = _cached_steps(key)
    if cached is not None:
        if log is not None:
            log("Evaluation steps from the cache", True)
        return cached
    loop_key = (key, id(asyncio.get_running_loop()))
    pending = _steps_in_flight.get(loop_key)
    if pending is not None:
        try:
            return await asyncio.shield(pending)
        except asyncio.CancelledError:
            if not pending.cancelled():
                raise  # this measure itself was cancelled
            # the measure that asked was abandoned (its deadline): ask here instead
    future: asyncio.Future[tuple[str, ...]] = asyncio.get_running_loop().create_future()
    _steps_in_flight[loop_key] = future
    try:
        reply = await a_generate_structured(llm, prompt, Steps, check=_steps_check)
        steps = tuple(s.strip() for s in reply.steps)
        _store_steps(key, steps)
        future.set_result(steps)
        return steps
    except asyncio.CancelledError:
        future.cancel()  # a waiter asks again itself
        raise
    except BaseException as err:
        future.set_exception(err)
        future.exception()  # retrieved: no "never retrieved" warning when nobody else waits
        raise
    finally:
        if _steps_in_flight.get(loop_key) is future:
            del _steps_in_flight[loop_key]


def params_text(params: Sequence[Any], labels_of: Mapping[Any, str] = PARAM_LABELS) -> str:
    """``"Input"``, ``"Input and Actual Output"``, ``"Input, Actual Output, and Context"``."""
    labels = [labels_of[p] for p in params]
    if len(labels) <= 2:
        return " and ".join(labels)
    return ", ".join(labels[:-1]) + ", and " + labels[-1]


def field_text(value: Any) -> str:
    """A field as a prompt shows it: a string as is, anything else as indented JSON."""
    if isinstance(value, str):
        return value
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json", exclude_none=True)
    elif isinstance(value, list):
        value = [
            v.model_dump(mode="json", exclude_none=True) if hasattr(v, "model_dump") else v for v in value
        ]
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def field_state(value: Any) -> Any:
    """A field as the System One state holds it: a string as is, anything else as its JSON value."""
    text = field_text(value)
    return value if isinstance(value, str) else json.loads(text) if _is_json(text) else text


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def number_steps(steps: Sequence[str]) -> str:
    return "".join(f"{i}. {s}\n" for i, s in enumerate(steps, 1))


class CriteriaMetric(NoOfflineTier, EngineMetric):
    """The measure of a metric defined by criteria or steps and a rubric (see the module docstring). A subclass
    sets ``suffix`` (the ``__name__`` tag), ``params_type`` and ``param_labels`` and implements
    :meth:`_check_params`, :meth:`_content` (the prompt's test-case block), :meth:`_state` (the System One
    state), :meth:`_steps_prompt` and :meth:`_results_prompt`; :meth:`_normalise` and :meth:`_prompt_range` are
    the score scale (by default the rubric's range)."""

    suffix: ClassVar[str] = "GEval"
    params_type: ClassVar[type[Enum]] = SingleTurnParams
    param_labels: ClassVar[Mapping[Any, str]] = PARAM_LABELS

    def _define(
        self,
        name: str,
        evaluation_params: Sequence[Any] | None,
        criteria: str | None,
        evaluation_steps: Sequence[str] | None,
        rubric: Sequence[Rubric] | None,
        top_logprobs: int,
        include_suffix: bool,
    ) -> None:
        """Check and keep the definition (deepeval 4.3.1's checks and messages, see :mod:`.rubric`).

        Raises:
            ValueError: empty ``evaluation_params``, blank criteria, empty steps, a bad rubric, ``top_logprobs`` < 0.
            TypeError: ``name`` not a string, a rubric item that is not a ``Rubric``.
        """
        if not isinstance(name, str):
            raise TypeError(f"{type(self).__name__}'s name must be a string, got {type(name).__name__}")
        if evaluation_params is not None and len(evaluation_params) == 0:
            raise ValueError("evaluation_params cannot be an empty list.")
        if criteria is not None or evaluation_steps is not None:
            validate_criteria_and_evaluation_steps(criteria, evaluation_steps)
        if isinstance(top_logprobs, bool) or not isinstance(top_logprobs, int) or top_logprobs < 0:
            raise ValueError(
                f"top_logprobs must be a whole number >= 0 (0: no log-probabilities), got {top_logprobs!r}"
            )
        self.name = name
        self._include_g_eval_suffix = include_suffix
        self.evaluation_params = (
            None if evaluation_params is None else [self._param(p) for p in evaluation_params]
        )
        self.criteria = criteria
        self._given_steps = tuple(evaluation_steps) if evaluation_steps else None
        self.evaluation_steps: list[str] | None = list(evaluation_steps) if evaluation_steps else None
        self.rubric = sorted_rubric(rubric)
        self.score_range = score_range(self.rubric)
        self.score_range_span = self.score_range[1] - self.score_range[0]
        self.top_logprobs = top_logprobs

    def _param(self, value: Any) -> Any:
        enum = self.params_type
        if isinstance(value, enum):
            return value
        try:
            return enum(getattr(value, "value", value))
        except ValueError:
            raise ValueError(
                f"evaluation_params holds {value!r}, which is not a {enum.__name__} member "
                f"({', '.join(p.name for p in enum)})"
            ) from None

    # -- the hooks of a criteria metric --------------------------------------------------------------------------
    def _content(self, test_case: Any) -> str:
        raise NotImplementedError

    def _state(self, test_case: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _steps_prompt(self) -> str:
        raise NotImplementedError

    def _results_prompt(self, test_case: Any, steps: Sequence[str], content: str) -> str:
        raise NotImplementedError

    def _prompt_range(self) -> tuple[int, int]:
        """The range the judge is asked to score on (and the score is checked against)."""
        return self.score_range

    def _normalise(self, raw: float) -> float:
        """The judge's score as a score in [0, 1]."""
        return normalise(raw, *self.score_range)

    def _range_text(self) -> str:
        low, high = self._prompt_range()
        return f"{low}-{high}"

    def _params_text(self) -> str:
        return params_text(self.evaluation_params or (), self.param_labels)

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [{self.suffix}]" if self._include_g_eval_suffix else self.name

    def upload(self) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError` (keep the definition in
        code)."""
        raise ConfidentAIRequiredError(
            f"{type(self).__name__}.upload() needs Confident AI; keep the metric's definition in your code"
        )

    def pull(self) -> None:
        """Confident AI only: raises :class:`~deepeval.errors.ConfidentAIRequiredError` (build the metric with its
        criteria or evaluation_steps instead)."""
        raise ConfidentAIRequiredError(
            f"{type(self).__name__}.pull() needs Confident AI; build the metric with criteria= or evaluation_steps="
        )

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg.update(
            name=self.name,
            evaluation_params=[p.value for p in self.evaluation_params or ()],
            criteria=self.criteria,
            evaluation_steps=list(self._given_steps or ()),
            rubric=[[*r.score_range, r.expected_outcome] for r in self.rubric or ()],
            top_logprobs=self.top_logprobs,
        )
        return cfg

    def _levels(self) -> ScoreLevels:
        return score_levels(self.rubric, self._prompt_range())

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.judges()  # the embedded judge is refused there (NoOfflineTier)
        state = self._state(test_case)
        question = self.question_set.criteria_score(self.criteria, self._given_steps, self._levels(), state)
        return state, [question]

    def system_one_result(
        self, test_case: Any, answers: SystemOneAnswers, cost: float | None
    ) -> MeasureResult:
        """The value of the answer to the score question (system_one mode; the runner's batching hook applies it).

        Raises:
            SystemOneError: no answer to the question (this mode has no fallback).
        """
        judges = self.judges()
        name = judge_name(judges.system_one) or "System One"
        if answers.model and answers.model not in name:
            name = f"{name} ({answers.model})"
        answer = answers.scores.get("criteria_score")
        if answer is None:
            raise SystemOneError(
                f"{self.__name__}: System One model {name} gave no answer to the criteria score question; "
                "system_one mode has no fallback (use eval_mode='hybrid' or 'llm' to let an LLM decide)",
                model=name,
                kind=ErrorKind.missing_answer,
            )
        levels = self._levels()
        raw = levels.raw_score(answer)
        top = len(levels.values) - 1
        if self.strict_mode:
            score = 1.0 if answer.top_level == top else 0.0
        else:
            score = apply_strict(self._normalise(raw), False)
        nearest = levels.texts[min(max(round(answer.score), 0), top)]
        reason = (
            f"The score is {score:.2f}: {name} graded the test case {raw:.1f} on {self._range_text()} "
            f"(expected level {answer.score:.2f} of {top}, closest to "
            f"{nearest!r}), confidence {answer.confidence:.2f}."
        )
        breakdown = {
            "raw_score": round(raw, 4),
            "score_range": list(self._prompt_range()),
            "expected_level": round(answer.score, 4),
            "level_probabilities": {str(k): round(v, 4) for k, v in answer.probabilities.items()},
            "decided_by": "system_one",
        }
        logs = "\n\n".join(
            [
                "Eval mode: system_one",
                f"Judge: {name}",
                f"Criteria:\n{self.criteria}",
                f"Evaluation Steps:\n{number_steps(self._given_steps or ())}",
                f"Rubric:\n{format_rubric(self.rubric)}",
                f"Answer: {answer.model_dump()}",
                f"Score: {score}",
            ]
        )
        return self._value(
            score,
            reason,
            breakdown,
            logs,
            confidence=answer.confidence,
            evaluation_model=name,
            usage=Usage(answers.input_tokens, answers.output_tokens, cost),
            attributes={"evaluation_steps": list(self._given_steps) if self._given_steps else None},
        )

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        judges = self.judges()
        steps = await self._steps(ctx)
        written = {
            "evaluation_steps": list(steps) if steps else None
        }  # a result attribute, as deepeval sets it
        content = self._content(test_case)
        ctx.log("Criteria", self.criteria or "")
        ctx.log("Evaluation Steps", number_steps(steps))
        ctx.log("Rubric", format_rubric(self.rubric) or "")
        if ctx.mode is EvalMode.HYBRID and ctx.system_one is not None and not ctx.system_one_off:
            outcome = await self._hybrid(test_case, ctx, steps, content, judges)
            if outcome is not None:
                outcome.units.update(written)
                return outcome
        if ctx.llm is None:
            raise ConfigurationError(
                f"{self.__name__} runs in eval mode '{ctx.mode.value}' but {NO_LLM_HELP}"
            )
        raw, reason, weighted = await self._llm_score(
            ctx.llm, self._results_prompt(test_case, steps, content)
        )
        score = raw if self.strict_mode and self._strict_is_binary() else self._normalise(raw)
        ctx.log("Score", {"raw_score": raw, "logprob_weighted": weighted, "score": score})
        ctx.log("Reason", reason)
        return Outcome(
            score=score,
            reason=reason,
            breakdown={
                "raw_score": round(raw, 4),
                "score_range": list(self._prompt_range()),
                "logprob_weighted": weighted,
                "decided_by": "llm",
            },
            units=written,
        )

    # -- steps ---------------------------------------------------------------------------------------------------
    async def _steps(self, ctx: MeasureContext) -> tuple[str, ...]:
        """The given steps, or the ones written from the criteria (cached by content, one request in flight per
        criteria and judge); with no LLM (hybrid on System One alone) the criteria stand alone: no steps."""
        if self._given_steps:
            return self._given_steps
        if ctx.llm is None:
            return ()
        return await written_steps(ctx.llm, self._steps_prompt(), log=ctx.log)

    # -- llm score -----------------------------------------------------------------------------------------------
    def _strict_is_binary(self) -> bool:
        """Strict mode asks the judge for 0 or 1 (GEval); else for the usual range, and below the top is 0."""
        return True

    def _score_check(self, reply: ReasonScore) -> None:
        binary = self.strict_mode and self._strict_is_binary()
        low, high = (0, 1) if binary else self._prompt_range()
        if not math.isfinite(reply.score):
            raise ValueError(f"the score {reply.score} is not a number")
        if binary and reply.score not in (0, 1):
            raise ValueError(f"strict mode asks for a score of 0 or 1, got {reply.score:g}")
        if not low <= reply.score <= high:
            raise ValueError(f"the score {reply.score:g} is outside the range {low}-{high}")

    async def _llm_score(self, llm: DeepEvalBaseLLM, prompt: str) -> tuple[float, str, bool]:
        """``(raw score, reason, whether it is log-probability weighted)``."""
        target = llm._inner if isinstance(llm, SyncLLM) else llm
        name = judge_name(target)
        if (
            self.top_logprobs > 0
            and not self.strict_mode  # strict mode uses the judge's own number, as deepeval
            and isinstance(target, SupportsLogprobs)
            and name not in _no_logprobs
        ):
            try:
                return await self._logprob_score(target, prompt, sync=isinstance(llm, SyncLLM))
            except StructuredOutputError:
                raise
            except JudgeError as err:
                if err.kind not in (ErrorKind.bad_request, ErrorKind.invalid_output):
                    raise
                _no_logprobs.add(name)  # the server refused log-probabilities: the plain call from now on
        reply = await a_generate_structured(llm, prompt, ReasonScore, check=self._score_check)
        return float(reply.score), reply.reason, False

    async def _logprob_score(self, llm: Any, prompt: str, *, sync: bool) -> tuple[float, str, bool]:
        last: list[Any] = []
        k = min(self.top_logprobs, 20)

        async def ask(text: str) -> str:
            with counted_call():
                if sync:
                    completion, cost = llm.generate_with_logprobs(text, top_logprobs=k, max_tokens=None)
                else:
                    completion, cost = await llm.a_generate_with_logprobs(
                        text, top_logprobs=k, max_tokens=None
                    )
            record_usage(cost=cost)
            last[:] = [completion]
            return str(completion.text)

        reply = await run_ladder(ask, prompt, ReasonScore, name=judge_name(llm), check=self._score_check)
        raw: Any = reply.score
        try:
            data = parse_json_text(last[0].text)
            raw = data.get("score", reply.score) if isinstance(data, dict) else reply.score
        except ValueError:
            pass
        low, high = self._prompt_range()
        weighted = weighted_score(last[0].tokens, raw, low=low, high=high)
        if weighted is None:
            return float(reply.score), reply.reason, False
        return weighted, reply.reason, True

    # -- hybrid --------------------------------------------------------------------------------------------------
    async def _hybrid(
        self, test_case: Any, ctx: MeasureContext, steps: Sequence[str], content: str, judges: Judges
    ) -> Outcome | None:
        """System One answers the score question; the LLM writes the reason. None: the LLM scores instead (System
        One failed with a fallback kind, or it is the embedded judge, which cannot grade free criteria)."""
        assert ctx.system_one is not None
        if is_embedded(ctx.system_one):
            ctx.fallback_reasons.append(
                "the embedded offline judge cannot grade free criteria: the LLM scores"
            )
            return None
        state = self._state(test_case)
        levels = self._levels()
        wq = self.question_set.criteria_score(self.criteria, steps or self._given_steps, levels, state)
        try:
            answers, cost = await a_decide_checked(ctx.system_one, state, {wq.id: wq.question})
        except JudgeError as err:
            if err.kind not in FALLBACK_KINDS or ctx.llm is None:
                raise
            ctx.fallback_reasons.append(f"{err.kind}: {err}")
            if err.kind == ErrorKind.auth:
                ctx.system_one_off = True
            return None
        record_usage(cost=cost)
        ctx.note_answers(answers)
        answer = answers.scores.get(wq.id)
        if answer is None:
            if ctx.llm is None:
                raise JudgeError(
                    f"{self.__name__}: System One gave no answer to the criteria score question and no LLM can "
                    "score instead",
                    kind=ErrorKind.missing_answer,
                )
            ctx.fallback_reasons.append(
                "missing_answer: System One gave no answer to the criteria score question"
            )
            return None
        ctx.confidences.append(answer.confidence)
        raw = levels.raw_score(answer)
        top = len(levels.values) - 1
        score = (1.0 if answer.top_level == top else 0.0) if self.strict_mode else self._normalise(raw)
        ctx.log("System One answer", answer.model_dump())
        reason = await self._hybrid_reason(ctx, steps, content, raw, answer.score, levels)
        ctx.log("Reason", reason)
        return Outcome(
            score=score,
            reason=reason,
            breakdown={
                "raw_score": round(raw, 4),
                "score_range": list(self._prompt_range()),
                "expected_level": round(answer.score, 4),
                "level_probabilities": {str(k): round(v, 4) for k, v in answer.probabilities.items()},
                "decided_by": "system_one",
            },
        )

    async def _hybrid_reason(
        self,
        ctx: MeasureContext,
        steps: Sequence[str],
        content: str,
        raw: float,
        level: float,
        levels: ScoreLevels,
    ) -> str:
        if ctx.llm is None:
            top = len(levels.values) - 1
            nearest = levels.texts[min(max(round(level), 0), top)]
            return (
                f"System One graded the test case {raw:.1f} on {self._range_text()} "
                f"(closest level: {nearest!r})."
            )
        prompt = call_template(
            self.evaluation_template.generate_reason,
            evaluation_steps=number_steps(steps),
            test_case_content=content,
            parameters=self._params_text(),
            score=raw,
            score_range=self._prompt_range(),
            rubric=format_rubric(self.rubric),
        )
        return (await a_generate_structured(ctx.llm, prompt, Reason)).reason

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Any:
        return None


def _steps_check(reply: Steps) -> None:
    if not reply.steps or not all(isinstance(s, str) and s.strip() for s in reply.steps):
        raise ValueError("the steps list is empty or holds a blank step")


__all__ = [
    "CriteriaMetric",
    "clear_steps_cache",
    "field_state",
    "field_text",
    "number_steps",
    "params_text",
    "written_steps",
]
