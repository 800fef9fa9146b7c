"""``GEval``: a metric defined by the user's criteria (or evaluation steps) and optional rubric, in every eval mode.

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
from collections.abc import Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import (
    ConfigurationError,
    ErrorKind,
    JudgeError,
    MissingTestCaseParamsError,
    StructuredOutputError,
)
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.decisions import FALLBACK_KINDS
from deepeval.metrics._engine.judges import NO_LLM_HELP, Judges, SyncLLM
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics.delimit import quote
from deepeval.metrics.g_eval.prompts import GEvalTemplate
from deepeval.metrics.g_eval.questions import GEvalQuestions, ScoreLevels, score_levels
from deepeval.metrics.g_eval.rubric import (
    Rubric,
    format_rubric,
    normalise,
    score_range,
    sorted_rubric,
    validate_criteria_and_evaluation_steps,
)
from deepeval.metrics.g_eval.schema import Reason, ReasonScore, Steps
from deepeval.metrics.scoring import apply_strict, success_of
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel, judge_name
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
NO_CRITERIA_JUDGE_HELP = (
    "the embedded offline judge cannot grade free criteria: configure a System One judge that can "
    "(TYPESAFE_API_KEY, or TYPESAFE_BASE_URL for any /v1/systemone server, or system_one_model=), or an LLM "
    "judge (OPENAI_API_KEY, USE_LOCAL_MODEL=YES with LOCAL_MODEL_BASE_URL, or model=) with eval_mode='llm'"
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


def _param(value: Any) -> SingleTurnParams:
    if isinstance(value, SingleTurnParams):
        return value
    try:
        return SingleTurnParams(getattr(value, "value", value))
    except ValueError:
        raise ValueError(
            f"evaluation_params holds {value!r}, which is not a SingleTurnParams member "
            f"({', '.join(p.name for p in SingleTurnParams)})"
        ) from None


def params_text(params: Sequence[SingleTurnParams]) -> str:
    """``"Input"``, ``"Input and Actual Output"``, ``"Input, Actual Output, and Context"``."""
    labels = [PARAM_LABELS[p] for p in params]
    if len(labels) <= 2:
        return " and ".join(labels)
    return ", ".join(labels[:-1]) + ", and " + labels[-1]


def _field_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json", exclude_none=True)
    elif isinstance(value, list):
        value = [
            v.model_dump(mode="json", exclude_none=True) if hasattr(v, "model_dump") else v for v in value
        ]
    return json.dumps(value, ensure_ascii=False, indent=1, default=str)


def _field_state(value: Any) -> Any:
    text = _field_text(value)
    return value if isinstance(value, str) else json.loads(text) if _is_json(text) else text


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def number_steps(steps: Sequence[str]) -> str:
    return "".join(f"{i}. {s}\n" for i, s in enumerate(steps, 1))


class GEval(EngineMetric):
    """A metric from the user's criteria or evaluation steps (see the module docstring).

    Raises (constructor):
        ValueError: empty ``evaluation_params``, blank criteria, empty steps, a bad rubric, ``top_logprobs`` < 0.
        TypeError: ``name`` not a string, a rubric item that is not a ``Rubric``.
    """

    default_template = GEvalTemplate
    default_question_set = GEvalQuestions

    def __init__(
        self,
        name: str,
        evaluation_params: Sequence[SingleTurnParams] | None = None,
        criteria: str | None = None,
        evaluation_steps: Sequence[str] | None = None,
        rubric: Sequence[Rubric] | None = None,
        model: str | DeepEvalBaseLLM | None = None,
        threshold: float | None = 0.5,
        top_logprobs: int = 20,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        _include_g_eval_suffix: bool = True,
        flaky: bool = False,
        evaluation_template: Any = GEvalTemplate,
        *,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        question_set: Any = None,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"GEval's name must be a string, got {type(name).__name__}")
        if evaluation_params is not None and len(evaluation_params) == 0:
            raise ValueError("evaluation_params cannot be an empty list.")
        if criteria is not None or evaluation_steps is not None:
            validate_criteria_and_evaluation_steps(criteria, evaluation_steps)
        if isinstance(top_logprobs, bool) or not isinstance(top_logprobs, int) or top_logprobs < 0:
            raise ValueError(
                f"top_logprobs must be a whole number >= 0 (0: no log-probabilities), got {top_logprobs!r}"
            )
        self.name = name
        self._include_g_eval_suffix = _include_g_eval_suffix
        self.evaluation_params = None if evaluation_params is None else [_param(p) for p in evaluation_params]
        self.criteria = criteria
        self._given_steps = tuple(evaluation_steps) if evaluation_steps else None
        self.evaluation_steps: list[str] | None = list(evaluation_steps) if evaluation_steps else None
        self.rubric = sorted_rubric(rubric)
        self.score_range = score_range(self.rubric)
        self.score_range_span = self.score_range[1] - self.score_range[0]
        self.top_logprobs = top_logprobs
        super().__init__(
            threshold=threshold,
            model=model,
            system_one_model=system_one_model,
            eval_mode=eval_mode,
            include_reason=True,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            evaluation_template=evaluation_template,
            question_set=question_set,
        )

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [GEval]" if self._include_g_eval_suffix else self.name

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

    # -- hooks of EngineMetric -----------------------------------------------------------------------------------
    def _check_params(self, test_case: Any) -> None:
        if not self.evaluation_params:
            raise MissingTestCaseParamsError(NO_TRACE_HELP.format(name=self.__name__))
        validate_criteria_and_evaluation_steps(self.criteria, self._given_steps)
        require_fields(test_case, [p.value for p in self.evaluation_params], self.__name__)

    def _fields(self, test_case: Any) -> dict[str, Any]:
        return {p.value: getattr(test_case, p.value) for p in self.evaluation_params or ()}

    def _content(self, test_case: Any) -> str:
        return "\n\n".join(
            f"{PARAM_LABELS[p]}:\n{quote('data', _field_text(getattr(test_case, p.value)))}"
            for p in self.evaluation_params or ()
        )

    def _levels(self) -> ScoreLevels:
        return score_levels(self.rubric, self.score_range)

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        judges = self.judges()
        if is_embedded(judges.system_one):
            raise ConfigurationError(
                f"{self.__name__} runs in eval mode 'system_one' but {NO_CRITERIA_JUDGE_HELP}"
            )
        state = {k: _field_state(v) for k, v in self._fields(test_case).items()}
        question = self.question_set.criteria_score(self.criteria, self._given_steps, self._levels(), state)
        return state, [question]

    def system_one_finish(self, test_case: Any, answers: SystemOneAnswers, cost: float | None) -> float:
        """Result attributes from the answer to the score question (system_one mode); returns the score.

        Raises:
            SystemOneError: no answer to the question (this mode has no fallback); the result attributes stay None.
        """
        judges = self.judges()
        name = judge_name(judges.system_one) or "System One"
        if answers.model and answers.model not in name:
            name = f"{name} ({answers.model})"
        self.evaluation_model = name
        self.evaluation_cost = cost
        self.input_tokens, self.output_tokens = answers.input_tokens, answers.output_tokens
        self.system_one_fallback_reason = None
        answer = answers.scores.get("criteria_score")
        if answer is None:
            self.score = self.success = self.error = None
            from deepeval.errors import SystemOneError

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
            score = apply_strict(normalise(raw, *self.score_range), False)
        self.score = score
        self.error = None
        self.confidence = answer.confidence
        nearest = levels.texts[min(max(round(answer.score), 0), top)]
        self.reason = (
            f"The score is {score:.2f}: {name} graded the test case {raw:.1f} on "
            f"{self.score_range[0]}-{self.score_range[1]} (expected level {answer.score:.2f} of {top}, closest to "
            f"{nearest!r}), confidence {answer.confidence:.2f}."
        )
        self.score_breakdown = {
            "raw_score": round(raw, 4),
            "score_range": list(self.score_range),
            "expected_level": round(answer.score, 4),
            "level_probabilities": {str(k): round(v, 4) for k, v in answer.probabilities.items()},
            "decided_by": "system_one",
        }
        self.success = success_of(score, self.threshold)
        self._set_verbose(
            "\n\n".join(
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
        )
        return score

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        judges = self.judges()
        if ctx.llm is None and is_embedded(ctx.system_one):
            raise ConfigurationError(
                f"{self.__name__} runs in eval mode '{ctx.mode.value}' but {NO_CRITERIA_JUDGE_HELP}"
            )
        steps = await self._steps(ctx)
        self.evaluation_steps = list(steps) if steps else None
        content = self._content(test_case)
        ctx.log("Criteria", self.criteria or "")
        ctx.log("Evaluation Steps", number_steps(steps))
        ctx.log("Rubric", format_rubric(self.rubric) or "")
        if ctx.mode is EvalMode.HYBRID and ctx.system_one is not None and not ctx.system_one_off:
            outcome = await self._hybrid(test_case, ctx, steps, content, judges)
            if outcome is not None:
                return outcome
        if ctx.llm is None:
            raise ConfigurationError(
                f"{self.__name__} runs in eval mode '{ctx.mode.value}' but {NO_LLM_HELP}"
            )
        raw, reason, weighted = await self._llm_score(ctx.llm, self._results_prompt(steps, content))
        score = raw if self.strict_mode else normalise(raw, *self.score_range)
        ctx.log("Score", {"raw_score": raw, "logprob_weighted": weighted, "score": score})
        ctx.log("Reason", reason)
        return Outcome(
            score=score,
            reason=reason,
            breakdown={
                "raw_score": round(raw, 4),
                "score_range": list(self.score_range),
                "logprob_weighted": weighted,
                "decided_by": "llm",
            },
        )

    # -- steps ---------------------------------------------------------------------------------------------------
    def _steps_prompt(self) -> str:
        return call_template(
            self.evaluation_template.generate_evaluation_steps,
            criteria=self.criteria,
            parameters=params_text(self.evaluation_params or ()),
            multimodal=False,
        )

    async def _steps(self, ctx: MeasureContext) -> tuple[str, ...]:
        """The given steps, or the ones written from the criteria (cached by content, one request in flight per
        criteria and judge); with no LLM (hybrid on System One alone) the criteria stand alone: no steps."""
        if self._given_steps:
            return self._given_steps
        if ctx.llm is None:
            return ()
        prompt = self._steps_prompt()
        key = hashlib.sha256(f"{judge_name(ctx.llm)}\x00{prompt}".encode()).hexdigest()
        cached = _cached_steps(key)
        if cached is not None:
            ctx.log("Evaluation steps from the cache", True)
            return cached
        loop_key = (key, id(asyncio.get_running_loop()))
        pending = _steps_in_flight.get(loop_key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[tuple[str, ...]] = asyncio.get_running_loop().create_future()
        _steps_in_flight[loop_key] = future
        try:
            reply = await a_generate_structured(ctx.llm, prompt, Steps, check=_steps_check)
            steps = tuple(s.strip() for s in reply.steps)
            _store_steps(key, steps)
            future.set_result(steps)
            return steps
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: no "never retrieved" warning when nobody else waits
            raise
        finally:
            _steps_in_flight.pop(loop_key, None)

    # -- llm score -----------------------------------------------------------------------------------------------
    def _results_prompt(self, steps: Sequence[str], content: str) -> str:
        params = params_text(self.evaluation_params or ())
        if self.strict_mode:
            return call_template(
                self.evaluation_template.generate_strict_evaluation_results,
                evaluation_steps=number_steps(steps),
                test_case_content=content,
                parameters=params,
                _additional_context=None,
                multimodal=False,
            )
        return call_template(
            self.evaluation_template.generate_evaluation_results,
            evaluation_steps=number_steps(steps),
            test_case_content=content,
            parameters=params,
            rubric=format_rubric(self.rubric),
            score_range=self.score_range,
            _additional_context=None,
            multimodal=False,
        )

    def _score_check(self, reply: ReasonScore) -> None:
        low, high = (0, 1) if self.strict_mode else self.score_range
        if not math.isfinite(reply.score):
            raise ValueError(f"the score {reply.score} is not a number")
        if self.strict_mode and reply.score not in (0, 1):
            raise ValueError(f"strict mode asks for a score of 0 or 1, got {reply.score:g}")
        if not low <= reply.score <= high:
            raise ValueError(f"the score {reply.score:g} is outside the range {low}-{high}")

    async def _llm_score(self, llm: DeepEvalBaseLLM, prompt: str) -> tuple[float, str, bool]:
        """``(raw score, reason, whether it is log-probability weighted)``."""
        target = llm._inner if isinstance(llm, SyncLLM) else llm
        name = judge_name(target)
        if (
            self.top_logprobs > 0
            and not self.strict_mode
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
        low, high = self.score_range
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
            ctx.fallback_reasons.append(NO_CRITERIA_JUDGE_HELP.split(":")[0])
            return None
        state = {k: _field_state(v) for k, v in self._fields(test_case).items()}
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
        score = (
            (1.0 if answer.top_level == top else 0.0)
            if self.strict_mode
            else normalise(raw, *self.score_range)
        )
        ctx.log("System One answer", answer.model_dump())
        reason = await self._hybrid_reason(ctx, steps, content, raw, answer.score, levels)
        ctx.log("Reason", reason)
        return Outcome(
            score=score,
            reason=reason,
            breakdown={
                "raw_score": round(raw, 4),
                "score_range": list(self.score_range),
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
                f"System One graded the test case {raw:.1f} on {self.score_range[0]}-{self.score_range[1]} "
                f"(closest level: {nearest!r})."
            )
        prompt = call_template(
            self.evaluation_template.generate_reason,
            evaluation_steps=number_steps(steps),
            test_case_content=content,
            parameters=params_text(self.evaluation_params or ()),
            score=raw,
            score_range=self.score_range,
            rubric=format_rubric(self.rubric),
        )
        return (await a_generate_structured(ctx.llm, prompt, Reason)).reason

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Any:
        return None


def _steps_check(reply: Steps) -> None:
    if not reply.steps or not all(isinstance(s, str) and s.strip() for s in reply.steps):
        raise ValueError("the steps list is empty or holds a blank step")


__all__ = ["GEval", "GEvalTemplate", "Rubric", "clear_steps_cache"]
