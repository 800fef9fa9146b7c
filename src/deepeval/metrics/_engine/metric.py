"""``EngineMetric``: the measure flow shared by our three metrics, in all three eval modes.

A concrete metric supplies:

* ``_check_params(test_case)``: raise ``MissingTestCaseParamsError``/``TypeError`` for unusable input;
* ``_system_one_request(test_case) -> (state, [WeightedQuestion])``: the whole-metric request (system_one mode);
* ``async _evaluate(test_case, ctx) -> Outcome``: the llm/hybrid algorithm, using ``ctx`` for judges, concurrency
  and logs, and :func:`deepeval.metrics._engine.decisions.decide` for every decision;
* ``_make_extractor(llm)``: the LLM-backed extractor with the metric's prompts;
* ``_degenerate(test_case) -> Outcome | None``: the defined result of an input there is nothing to judge in (a
  blank output, an empty retrieval context, ...), or None. It applies in EVERY mode, before any judge call: such a
  test case gets that score and reason with no judge call, and ``system_one_plan`` returns None for it (so the
  runner calls ``a_measure``, which scores it without a request);
* class attributes ``default_template`` (with ``PROMPT_VERSION``) and ``default_question_set`` (with ``VERSION``).

Flow of a measure (its frame is :func:`deepeval.metrics.flow.run_measure`, shared with the memory metrics, which
returns the measure's value; ``measure()`` applies it): reset results; open ``track_usage()``; check fields; resolve judges once per instance (lazily,
never in the constructor); score a degenerate input without a judge, or else run the mode; apply strict mode; set ``success`` (None when ``threshold`` is None); copy
tokens and cost (``evaluation_cost`` None when no judge reported a cost). On any error the value carries it (with
its kind) and ``measure()`` re-raises the original exception, leaving ``score``, ``success`` and ``error`` None.

``measure()`` runs ``a_measure()`` through :func:`deepeval._concurrency.run_sync` when ``async_mode`` is True; with
``async_mode=False`` it runs the same algorithm calling the judges' sync ``generate``/``decide`` one call after
another, so both paths give identical results.
"""

from __future__ import annotations

import math
import sys
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deepeval._digest import content_digest, embedded_judge_digest
from deepeval.config.eval_mode import EvalMode, parse_eval_mode, resolve_eval_mode
from deepeval.config.settings import get_settings
from deepeval.errors import ConfigurationError, InvalidEvalModeError
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.extractor import EXTRACTION_PROMPT_VERSION
from deepeval.metrics._engine.judges import (
    Judges,
    SyncLLM,
    SyncSystemOne,
    deterministic_extractor,
    resolve_judges,
)
from deepeval.metrics._engine.schemas import ReasonReply
from deepeval.metrics._engine.system_one import WeightedQuestion, build_reason, evaluate_answers
from deepeval.metrics._engine.template_calls import (
    call_template,
    overridden_methods,
    reason_keywords,
    takes,
    unused_methods_note,
)
from deepeval.metrics.base_metric import SystemOnePlan
from deepeval.metrics.flow import OwnMetric, apply
from deepeval.metrics.result import MeasureResult, Usage
from deepeval.metrics.scoring import apply_strict, effective_threshold, success_of
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel, judge_name
from deepeval.models.extraction import Extractor
from deepeval.models.plan import JudgePlan, plan_judges
from deepeval.models.resolve import build_llm, build_system_one
from deepeval.models.structured import a_generate_structured
from deepeval.models.system_one.call import a_decide_checked
from deepeval.models.system_one.schema import SystemOneAnswers
from deepeval.models.usage import record_usage
from deepeval.test_case.base import CaseModel, revalidated
from deepeval.test_case.encodable import encodable


def _judge_copy(test_case: Any) -> Any:
    """The test case as judges see it: checked again (a list item changed to the wrong type after construction is
    a ``TypeError`` naming the field and index, not an ``AttributeError`` deep in a judge), and with lone
    surrogates as U+FFFD so its text encodes as UTF-8. The caller's test case is untouched."""
    if isinstance(test_case, CaseModel):
        test_case = revalidated(test_case)
    return encodable(test_case)


#: (metric class, template, mode, no LLM, reason) already warned about by ``_note_unused_template``
_TEMPLATE_NOTES: set[tuple[Any, ...]] = set()


@dataclass
class Outcome:
    """What an llm/hybrid evaluation produced (score before strict mode)."""

    score: float
    reason: str | None
    breakdown: dict[str, Any] = field(default_factory=dict)
    #: the units the measure extracted, by name (a pipeline metric's ``claims``, ``truths``): result attributes
    units: dict[str, Any] = field(default_factory=dict)


def _init_named_for(cls: type) -> Callable[..., None]:
    """A copy of the ``__init__`` ``cls`` inherits (the nearest base's: :meth:`EngineMetric.__init__`, or a shared
    base's own, such as the turn metrics' ``window_size`` one) whose qualified name (in error messages:
    ``co_qualname``, Python 3.11+) is ``<cls>.__init__``."""
    base = next(vars(k)["__init__"] for k in cls.__mro__[1:] if "__init__" in vars(k))
    code = base.__code__
    qualname = f"{cls.__qualname__}.__init__"
    if sys.version_info >= (3, 11):
        code = code.replace(co_qualname=qualname)
    init = types.FunctionType(code, base.__globals__, "__init__", base.__defaults__, base.__closure__)
    init.__kwdefaults__ = base.__kwdefaults__
    init.__qualname__ = qualname
    init.__doc__ = base.__doc__
    init.__module__ = cls.__module__
    init.__annotations__ = dict(base.__annotations__)
    return init


class EngineMetric(OwnMetric):
    """Base of AnswerRelevancy, ContextualRelevancy and KnowledgeRetention (see module docstring).

    Args:
        threshold: minimum passing score in [0, 1], or None for score-only mode (``success`` stays None).
        model: the LLM judge: a ``DeepEvalBaseLLM``, an OpenAI model name, or None (resolved from settings).
        system_one_model: the System One judge: a ``DeepEvalBaseSystemOneModel``, a TypeSafe model name, or None.
        eval_mode: ``"llm" | "hybrid" | "system_one"`` (any case), or None for ``DEEPEVAL_EVAL_MODE``/the default.
        include_reason: False skips the reason (and its LLM call); ``reason`` stays None.
        async_mode: True runs independent judge calls concurrently.
        strict_mode: threshold 1; any score below 1 becomes 0.
        verbose_mode: print the intermediate steps (also kept in ``verbose_logs``).
        flaky: mark the metric flaky (a failure does not fail the test case).
        evaluation_template: object/class overriding the metric's prompt functions (same names as the default
            template); its ``PROMPT_VERSION`` (or class name) enters the cache key.
        question_set: object/class overriding the System One question builders; its ``VERSION`` enters the key.
        extractor: an :class:`~deepeval.models.extraction.Extractor` used instead of the LLM for extraction.

    Raises:
        InvalidEvalModeError: ``eval_mode`` is not a valid mode (a ``ValueError``).
        ValueError: ``threshold`` outside [0, 1].
    """

    returns_value: ClassVar[bool] = True
    default_template: ClassVar[Any]
    default_question_set: ClassVar[Any]
    #: the schema of the reason call (each metric: deepeval 4.3.1's ``*ScoreReason`` class)
    reason_schema: ClassVar[type[ReasonReply]] = ReasonReply

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Our metrics (``AnswerRelevancyMetric``...) get their own copy of :meth:`__init__` under their name, so a
        misspelled keyword reads ``AnswerRelevancyMetric.__init__() got an unexpected keyword argument`` (as in
        deepeval) instead of naming this shared base."""
        super().__init_subclass__(**kwargs)
        if "__init__" not in vars(cls) and cls.__module__.startswith("deepeval."):
            cls.__init__ = _init_named_for(cls)  # type: ignore[method-assign]

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
        flaky: bool = False,
        *,
        evaluation_template: Any = None,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self._judges: Judges | None = None
        self.eval_mode = eval_mode  # the setter parses it
        # any finite number, as deepeval accepts (a threshold above 1 can never pass; below 0 always passes)
        if threshold is not None and (
            isinstance(threshold, bool)
            or not isinstance(threshold, (int, float))
            or not math.isfinite(float(threshold))
        ):
            raise ValueError(f"threshold must be a finite number or None, got {threshold!r}")
        self.threshold = effective_threshold(None if threshold is None else float(threshold), strict_mode)
        self.model_argument = model
        self.system_one_model_argument = system_one_model
        self.include_reason = include_reason
        self.async_mode = async_mode
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.flaky = flaky
        self.evaluation_template = evaluation_template or self.default_template
        self.question_set = question_set or self.default_question_set
        self.extractor = extractor
        self.reset_result()
        self.evaluation_model = self._expected_evaluation_model()

    # -- hooks -----------------------------------------------------------------------------------------------------
    def _check_params(self, test_case: Any) -> None:
        raise NotImplementedError

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        raise NotImplementedError

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        raise NotImplementedError

    def _make_extractor(self, llm: DeepEvalBaseLLM) -> Extractor:
        raise NotImplementedError

    def _degenerate(self, test_case: Any) -> Outcome | None:
        """The defined outcome of an input with nothing to judge (no judge call in any mode), else None."""
        return None

    # -- eval mode, versions and judges ----------------------------------------------------------------------------
    @property
    def eval_mode(self) -> EvalMode | None:
        """The eval mode this metric runs in: the resolved one once its judges are resolved; before that the
        ``eval_mode`` argument, else ``DEEPEVAL_EVAL_MODE``, else the default (read from settings only: nothing is
        loaded or contacted). None while ``DEEPEVAL_EVAL_MODE`` is invalid (``measure`` then raises
        ``InvalidEvalModeError``). Assigning a mode (or None) re-resolves the judges on the next measure.
        """
        if self._judges is not None:
            return self._judges.mode
        try:
            return self._resolve_mode()
        except InvalidEvalModeError:
            return None

    @eval_mode.setter
    def eval_mode(self, value: str | EvalMode | None) -> None:
        self.eval_mode_argument = None if value is None else parse_eval_mode(value, "the eval_mode argument")
        self._judges = None
        if "model_argument" in self.__dict__:  # not while __init__ is still setting the arguments
            self.evaluation_model = self._expected_evaluation_model()

    @property
    def model(self) -> DeepEvalBaseLLM | None:
        """The LLM judge, as deepeval exposes it: None in ``system_one`` mode (as deepeval, even when ``model=`` was
        given: that mode never calls it); else the resolved one after the first measure; before that the
        ``model=`` instance, or the client the first measure will use (built on first access, from the ``model=``
        name or the settings: a client object only, no connection and no key needed; a ``GGUF_MODEL_PATH`` judge
        loads its file then, as a measure would). None in ``system_one`` mode, when no LLM is configured, or
        while the configuration cannot build one (the first measure reports why). Assigning a model (or None)
        re-resolves the judges on the next measure."""
        arg = self.model_argument
        if self._judges is not None:
            return self._judges.llm
        mode = self._mode_or_none()
        if mode is EvalMode.SYSTEM_ONE:
            return None
        if isinstance(arg, DeepEvalBaseLLM) or mode is None:
            return arg if isinstance(arg, DeepEvalBaseLLM) else None
        try:
            plan = self._plan(mode)
            return None if plan.llm is None else build_llm(plan.llm, get_settings())
        except Exception:  # a bad configuration: the measure raises it, with the metric's error set
            return None

    @model.setter
    def model(self, value: str | DeepEvalBaseLLM | None) -> None:
        self.model_argument = value
        self._judges = None
        self.evaluation_model = self._expected_evaluation_model()

    @property
    def system_one_model(self) -> DeepEvalBaseSystemOneModel | None:
        """The System One judge, like :attr:`model`: the ``system_one_model=`` instance; else the resolved one
        after the first measure; before that the one the first measure will use (a TypeSafe client object, or
        the embedded judge); None in ``llm`` mode (even when given) or while the configuration cannot build one."""
        arg = self.system_one_model_argument
        if self._judges is not None:
            return self._judges.system_one
        mode = self._mode_or_none()
        if mode is EvalMode.LLM:
            return None
        if isinstance(arg, DeepEvalBaseSystemOneModel) or mode is None:
            return arg if isinstance(arg, DeepEvalBaseSystemOneModel) else None
        try:
            plan = self._plan(mode)
            return None if plan.system_one is None else build_system_one(plan.system_one, get_settings())
        except Exception:  # as in ``model``
            return None

    @system_one_model.setter
    def system_one_model(self, value: str | DeepEvalBaseSystemOneModel | None) -> None:
        self.system_one_model_argument = value
        self._judges = None
        self.evaluation_model = self._expected_evaluation_model()

    def _expected_evaluation_model(self) -> str | None:
        """``evaluation_model`` before any measure (deepeval sets it at construction): the names of the judges the
        resolved mode will use (:meth:`~deepeval.models.plan.JudgePlan.evaluation_model`, from the arguments and
        the settings), composed by the rule a measure uses. Nothing is built, loaded or contacted."""
        mode = self._mode_or_none()
        return None if mode is None else self._plan(mode).evaluation_model()

    def _plan(self, mode: EvalMode) -> JudgePlan:
        """The judge plan of this metric in ``mode`` (:func:`~deepeval.models.plan.plan_judges`): pure, nothing
        is built."""
        return plan_judges(
            eval_mode=mode,
            model=self.model_argument,
            system_one_model=self.system_one_model_argument,
            extractor=self.extractor,
            settings=get_settings(),
        )

    def _mode_or_none(self) -> EvalMode | None:
        try:
            return self._resolve_mode()
        except InvalidEvalModeError:
            return None

    def _resolve_mode(self) -> EvalMode:
        return resolve_eval_mode(
            self.eval_mode_argument, has_llm=True if self.model_argument is not None else None
        )

    @property
    def prompt_version(self) -> str:
        t = self.evaluation_template
        return str(getattr(t, "PROMPT_VERSION", None) or getattr(t, "__qualname__", type(t).__qualname__))

    @property
    def question_set_version(self) -> str:
        q = self.question_set
        return str(getattr(q, "VERSION", None) or getattr(q, "__qualname__", type(q).__qualname__))

    def judges(self) -> Judges:
        """Resolve (once per instance) and return the eval mode and judges.

        Raises:
            InvalidEvalModeError: bad ``DEEPEVAL_EVAL_MODE``.
            ConfigurationError: ``llm`` mode with no LLM available.
        """
        if self._judges is None:
            self._judges = resolve_judges(
                eval_mode=self.eval_mode_argument,
                model=self.model_argument,
                system_one_model=self.system_one_model_argument,
                extractor=self.extractor,
                metric_name=self.__name__,
            )
            self._note_unused_template(self._judges)
        return self._judges

    def _note_unused_template(self, judges: Judges) -> None:
        """Warn (once per metric class, template, mode and judge set-up) about ``evaluation_template`` methods the
        resolved mode does not call (:func:`~deepeval.metrics._engine.template_calls.unused_methods_note`): an
        override is never ignored silently."""
        methods = overridden_methods(self.evaluation_template, self.default_template)
        note = unused_methods_note(
            methods,
            mode=judges.mode.value,
            has_llm=judges.llm is not None,
            llm_extracts=judges.extractor is None,
        )
        if note is None:
            return
        key = (
            type(self).__qualname__,
            id(self.evaluation_template),
            judges.mode,
            judges.llm is None,
            note[1],
        )
        if key in _TEMPLATE_NOTES:
            return
        _TEMPLATE_NOTES.add(key)
        warnings.warn(
            f"{self.__name__}: evaluation_template method(s) {', '.join(note[0])} not used in eval mode "
            f"'{judges.mode.value}': {note[1]}",
            UserWarning,
            stacklevel=4,
        )

    def cache_config(self) -> dict[str, Any]:
        """Base config plus the RESOLVED eval mode, judge names, prompt, extraction and question-set versions.

        Cheap and side-effect free (the runner computes it before measuring): the mode comes from settings and the
        judge names from the plan (:meth:`~deepeval.models.plan.JudgePlan.key_names`), so no client is built, no embedded
        model is loaded and nothing touches the network. The same metric gives the same config whether the mode
        came from the argument or from ``DEEPEVAL_EVAL_MODE``, and before or after its first measure.
        """
        cfg = super().cache_config()
        cfg.update(
            prompt_version=self.prompt_version,  # labels; the digests below are what keys the content
            extraction_prompt_version=EXTRACTION_PROMPT_VERSION,
            question_set_version=self.question_set_version,
            prompt_digest=content_digest(self.evaluation_template, _extractor_module()),
            question_set_digest=content_digest(self.question_set),
        )
        try:
            mode = self._judges.mode if self._judges is not None else self._resolve_mode()
        except InvalidEvalModeError as err:  # the measure will report it; the key must still be computable
            cfg["eval_mode"] = None
            cfg["judges"] = f"unresolved: {type(err).__name__}"
            return cfg
        cfg["eval_mode"] = mode.value
        names = self._plan(mode).key_names()
        cfg["judges"] = names if names is not None else f"unresolved: {ConfigurationError.__name__}"
        if names is None or _uses_embedded(mode, names):
            cfg["embedded_judge_digest"] = embedded_judge_digest()
        return cfg

    # -- measure (``measure``/``a_measure``: :class:`~deepeval.metrics.flow.OwnMetric`) -------------------------------
    async def _run_engine(self, test_case: Any, *, sequential: bool) -> MeasureResult:
        """One measure's value (:func:`deepeval.metrics.flow.run_measure` adds the judges' usage; ``measure()``
        applies it). Nothing is written on the metric along the way."""
        test_case = _judge_copy(test_case)
        self._check_params(test_case)
        judges = self.judges()
        degenerate = self._degenerate(test_case)
        if degenerate is not None:
            return self._without_judge(degenerate, judges)
        if judges.mode is EvalMode.SYSTEM_ONE:
            return await self._measure_system_one(test_case, judges, sequential)
        return await self._measure_llm_hybrid(test_case, judges, sequential)

    def measure_context(self, *, sequential: bool = False) -> MeasureContext:
        """A fresh :class:`~deepeval.metrics._engine.context.MeasureContext` with this metric's judges (what one
        measure uses; ``deepeval judge-eval`` decides labelled units with it)."""
        return self._context(self.judges(), sequential)

    def _context(self, judges: Judges, sequential: bool) -> MeasureContext:
        """A fresh :class:`MeasureContext` for ``judges`` (llm/hybrid; in system_one mode, a context whose
        decisions go to the System One model and whose extraction is deterministic, as ``judge-eval`` uses it)."""
        llm = judges.llm
        s1 = judges.system_one
        if sequential:
            llm = SyncLLM(llm) if llm is not None else None
            s1 = SyncSystemOne(s1) if s1 is not None else None
        extractor = judges.extractor
        own_extraction = extractor is None
        if extractor is None:
            extractor = self._make_extractor(llm) if llm is not None else deterministic_extractor()
        return MeasureContext(
            metric_name=self.__name__,
            mode=judges.mode,
            llm=llm,
            system_one=s1,
            extractor=extractor,
            include_reason=self.include_reason,
            sequential=sequential,
            own_extraction=own_extraction,
        )

    def _value(
        self,
        score: float,
        reason: str | None,
        breakdown: Any,
        logs: str,
        *,
        confidence: float | None = None,
        fallback_reason: str | None = None,
        evaluation_model: str | None = None,
        verdicts: list[dict[str, Any]] | None = None,
        attributes: dict[str, Any] | None = None,
        usage: Usage | None = None,
    ) -> MeasureResult:
        """The one place a measure's value is made (strict mode already applied to ``score``); verbose logs are
        printed here when ``verbose_mode`` is on."""
        if self.verbose_mode:
            from deepeval._safe_text import terminal

            print(terminal(f"[{self.__name__} verbose logs]\n{logs}"))
        return MeasureResult(
            score=score,
            reason=reason if self.include_reason else None,
            success=success_of(score, self.threshold),
            verdicts=None if verdicts is None else tuple(verdicts),
            breakdown=breakdown,
            confidence=confidence,
            fallback_reason=fallback_reason,
            evaluation_model=evaluation_model,
            verbose_logs=logs,
            usage=usage or Usage(),
            attributes=dict(attributes or {}),
        )

    async def _measure_llm_hybrid(self, test_case: Any, judges: Judges, sequential: bool) -> MeasureResult:
        ctx = self._context(judges, sequential)
        outcome = await self._evaluate(test_case, ctx)
        return self._value(
            apply_strict(outcome.score, self.strict_mode),
            outcome.reason,
            outcome.breakdown,
            ctx.verbose_logs(),
            confidence=ctx.confidence(),
            fallback_reason=ctx.fallback_reason(),
            evaluation_model=ctx.evaluation_model(),
            verdicts=ctx.result_verdicts(),
            attributes={**ctx.attributes, **outcome.units},
        )

    def _without_judge(self, outcome: Outcome, judges: Judges) -> MeasureResult:
        """The value of a degenerate input: its defined score and reason; no judge named, no confidence."""
        return self._value(
            apply_strict(outcome.score, self.strict_mode),
            outcome.reason,
            {**outcome.breakdown, "judge_calls": 0},
            f"Eval mode: {judges.mode.value}\n\nNo judge call:\n{outcome.reason}",
        )

    async def _explain(
        self,
        ctx: MeasureContext,
        score: float,
        judged: list[dict[str, Any]],
        fallback: Callable[[float, list[dict[str, Any]]], str],
        *prompt_args: Any,
    ) -> str:
        """The reason: the LLM writes it from ``evaluation_template.generate_reason(*prompt_args, score, judged)``
        (by deepeval 4.3.1's keywords when the method names ``score`` but not ``judged``, see
        :func:`~deepeval.metrics._engine.template_calls.reason_keywords`);
        with no LLM (hybrid on the embedded judge) ``fallback(score, judged)`` builds it from the verdicts."""
        if ctx.llm is None:
            return fallback(score, judged)
        method = self.evaluation_template.generate_reason
        if takes(method, "judged") or not takes(method, "score"):
            prompt = method(*prompt_args, score, judged)
        else:  # a template written for deepeval 4.3.1: its keywords (irrelevant_statements, attritions...)
            prompt = call_template(method, **reason_keywords(score, judged, prompt_args))
        return (await a_generate_structured(ctx.llm, prompt, self.reason_schema)).reason

    # -- system_one mode (also the runner's batching hooks) --------------------------------------------------------
    async def _measure_system_one(self, test_case: Any, judges: Judges, sequential: bool) -> MeasureResult:
        plan = self.system_one_plan(test_case)
        assert plan is not None
        model = SyncSystemOne(plan.model) if sequential else plan.model
        answers, cost = await a_decide_checked(model, plan.state, plan.questions)
        record_usage(cost=cost)
        return self.system_one_result(test_case, answers, cost)

    def system_one_plan(self, test_case: Any) -> SystemOnePlan | None:
        """This metric's whole System One request when it runs in ``system_one`` mode, else None (also None for a
        degenerate input, which ``a_measure`` scores without a request).

        Raises:
            MissingTestCaseParamsError: a required field is missing (as ``measure`` would).
        """
        judges = self.judges()
        if judges.mode is not EvalMode.SYSTEM_ONE:
            return None
        test_case = _judge_copy(test_case)
        self._check_params(test_case)
        if self._degenerate(test_case) is not None:
            return None
        assert judges.system_one is not None
        state, questions = self._system_one_request(test_case)
        return SystemOnePlan(
            model=judges.system_one, state=state, questions={q.id: q.question for q in questions}
        )

    def system_one_finish(self, test_case: Any, answers: SystemOneAnswers, cost: float | None) -> float:
        """Apply :meth:`system_one_result` (the runner's batching hook: it set the result attributes); return the
        score.

        Raises:
            SystemOneError: a question has no answer (no fallback in this mode); the result attributes stay None.
        """
        return apply(self, self.system_one_result(test_case, answers, cost))

    def system_one_result(
        self, test_case: Any, answers: SystemOneAnswers, cost: float | None
    ) -> MeasureResult:
        """The value of the answers to :meth:`system_one_plan`'s questions (their cost and tokens as its usage).

        Raises:
            SystemOneError: a question has no answer (no fallback in this mode).
        """
        judges = self.judges()
        name = judge_name(judges.system_one) or "System One"
        if answers.model and answers.model not in name:
            name = f"{name} ({answers.model})"
        _, questions = self._system_one_request(_judge_copy(test_case))
        result = evaluate_answers(questions, answers, model_name=name, metric_name=self.__name__)
        if self.strict_mode:
            score = 1.0 if result.all_passed else 0.0
        else:
            score = apply_strict(result.raw_score, False)
        lines = ["Eval mode: system_one", f"Judge: {name}"]
        for v in result.values:
            q = v.question
            lines.append(f"Question {q.id} (weight {q.weight:g}): {q.label}\n  answer: {v.as_dict()}")
        return self._value(
            score,
            build_reason(result, score, strict_mode=self.strict_mode, judge=name)
            if self.include_reason
            else None,
            result.breakdown(),
            "\n\n".join(lines),
            confidence=result.confidence,
            evaluation_model=name,
            usage=Usage(answers.input_tokens, answers.output_tokens, cost),
        )


def _extractor_module() -> Any:
    from deepeval.metrics._engine import extractor

    return extractor


def _uses_embedded(mode: EvalMode, names: dict[str, str | None]) -> bool:
    """Whether the embedded judge (System One answers or deterministic extraction) can decide this metric's result."""
    if any(v is not None and "embedded" in v.lower() for v in names.values()):
        return True
    return mode is not EvalMode.LLM and names.get("llm") is None and names.get("extractor") is None
