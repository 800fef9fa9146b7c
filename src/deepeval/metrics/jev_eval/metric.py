"""``JevEval``: a metric built from the user's typed questions (``Noul``, ``Score``, ``Choice``), answered by the
System One judge in one request per test case (batched with other metrics' System One requests in ``evaluate()``),
scored by :mod:`deepeval.metrics.jev_eval.outcomes`. System One only, as in deepeval 4.3.1: no LLM, a reason
built from the answers.

Facts from deepeval 4.3.1: ``JevEval(name, evaluation_params=None, questions=None, system_one_model=None,
include_reason=True, threshold=0.5, strict_mode=False, async_mode=True, verbose_mode=False, flaky=False,
_include_jev_eval_suffix=True)``; ``__name__`` ``"<name> [JevEval]"``; ``evaluation_params=[]`` and no question
are ``ValueError``, a question of another type a ``TypeError``; the request state is ``{"test_case": {field:
value}}`` over the populated fields named by ``evaluation_params``, the questions ``q_0``, ``q_1``...;
``score_breakdown`` is the list of :class:`~deepeval.metrics.jev_eval.questions.QuestionOutcome` dicts and
``confidence`` the lowest answer confidence.

**ours:** the judge is resolved at the first measure, not in the constructor (deepeval raises there without
``TYPESAFE_API_KEY``); the embedded offline judge cannot answer free questions, so without a System One judge the
measure is a ``ConfigurationError`` naming what to configure; any System One model works (TypeSafe, any
``/v1/systemone`` server, an LLM's log-probabilities via ``LogprobSystemOneModel``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

from pydantic import BaseModel

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.metric import EngineMetric, Outcome
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics._engine.unmeasured import NoOfflineTier
from deepeval.metrics.jev_eval.outcomes import (
    aggregate,
    aggregate_strict,
    build_questions,
    mark_strict,
    min_confidence,
    outcomes_of,
    reason_text,
)
from deepeval.metrics.jev_eval.questions import Choice, JevQuestion, Noul, Score
from deepeval.metrics.result import MeasureResult, Usage
from deepeval.models.base_model import DeepEvalBaseSystemOneModel, judge_name
from deepeval.models.system_one.schema import SystemOneAnswers
from deepeval.test_case import SingleTurnParams

__all__ = ["JevEval", "JevMetric", "state_field"]

NO_TRACE_HELP = (
    "The '{name}' metric has no evaluation_params, so it would evaluate a trace, but this test case has none. Pass "
    "evaluation_params to evaluate a plain LLMTestCase."
)


class _NoPrompts:
    """JevEval sends no prompt of its own (the questions are the user's and enter the cache key)."""

    PROMPT_VERSION = "jev_eval/none"
    VERSION = "jev_eval/none"


def populated(value: Any) -> bool:
    return value is not None and not (isinstance(value, (str, list, dict)) and len(value) == 0)


def state_field(value: Any) -> Any:
    """A field as the request state holds it: pydantic objects as their JSON dicts, lists item by item."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, list):
        return [state_field(v) for v in value]
    return value


def validate_questions(questions: Sequence[Any] | None) -> list[JevQuestion]:
    if questions is None or len(questions) == 0:
        raise ValueError("JevEval needs at least one question (Noul, Score or Choice).")
    for q in questions:
        if not isinstance(q, (Noul, Score, Choice)):
            raise TypeError(f"Questions must be Noul, Score or Choice; got {type(q).__name__}.")
    return list(questions)


class JevMetric(NoOfflineTier, EngineMetric):
    """What JevEval and ConversationalJevEval share: System One mode fixed, the questions, the finish."""

    suffix: ClassVar[str] = "JevEval"
    evaluation_params: list[Any] | None
    default_template = _NoPrompts
    default_question_set = _NoPrompts

    def _setup(
        self,
        *,
        name: str,
        questions: Sequence[Any] | None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None,
        include_reason: bool,
        threshold: float | None,
        strict_mode: bool,
        async_mode: bool,
        verbose_mode: bool,
        flaky: bool,
        include_suffix: bool,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{type(self).__name__}'s name must be a string, got {type(name).__name__}")
        self.name = name
        self._include_jev_eval_suffix = include_suffix
        self.questions = validate_questions(questions)
        EngineMetric.__init__(
            self,
            threshold=threshold,
            model=None,
            system_one_model=system_one_model,
            eval_mode=EvalMode.SYSTEM_ONE,
            include_reason=include_reason,
            async_mode=async_mode,
            strict_mode=strict_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
        )

    @property
    def __name__(self) -> str:  # type: ignore[override]
        return f"{self.name} [{self.suffix}]" if self._include_jev_eval_suffix else self.name

    def cache_config(self) -> dict[str, Any]:
        cfg = super().cache_config()
        cfg.update(
            name=self.name,
            evaluation_params=[p.value for p in self.evaluation_params or ()],
            questions=[q.model_dump(mode="json") for q in self.questions],
        )
        return cfg

    def _state(self, test_case: Any) -> dict[str, Any]:
        raise NotImplementedError

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[WeightedQuestion]]:
        self.judges()  # the embedded judge is refused there (NoOfflineTier)
        asked = build_questions(self.questions)
        return self._state(test_case), [
            WeightedQuestion(qid, q.weight, cast(Any, sq), q.text)
            for (qid, sq), q in zip(asked.items(), self.questions, strict=True)
        ]

    async def _evaluate(self, test_case: Any, ctx: Any) -> Outcome:  # never called: System One mode is fixed
        raise AssertionError("JevEval runs in system_one mode only")

    def system_one_result(
        self, test_case: Any, answers: SystemOneAnswers, cost: float | None
    ) -> MeasureResult:
        """The value of the answers (the runner's batching hook applies it).

        Raises:
            SystemOneError: a question has no answer of its type (kind ``missing_answer``).
        """
        judges = self.judges()
        name = judge_name(judges.system_one) or "System One"
        if answers.model and answers.model not in name:
            name = f"{name} ({answers.model})"
        outcomes = outcomes_of(self.questions, answers, name)
        if self.strict_mode:
            outcomes = mark_strict(self.questions, outcomes)
            score = aggregate_strict(outcomes)
        else:
            score = aggregate(outcomes)
        confidence = min_confidence(outcomes)
        logs = "\n".join(
            [f"Eval mode: system_one\nJudge: {name}"]
            + [f"{i}. {o.model_dump()}" for i, o in enumerate(outcomes, 1)]
            + [f"Score: {score}", f"Confidence: {confidence}"]
        )
        return self._value(
            score,
            reason_text(outcomes, score, judge=name, strict_mode=self.strict_mode),
            [o.model_dump() for o in outcomes],  # a list, as deepeval 4.3.1's score_breakdown
            logs,
            confidence=confidence,
            evaluation_model=name,
            usage=Usage(answers.input_tokens, answers.output_tokens, cost),
        )


class JevEval(JevMetric):
    """deepeval 4.3.1's constructor (see the module docstring)."""

    def __init__(
        self,
        name: str,
        evaluation_params: Sequence[SingleTurnParams] | None = None,
        questions: Sequence[JevQuestion] | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        include_reason: bool = True,
        threshold: float | None = 0.5,
        strict_mode: bool = False,
        async_mode: bool = True,
        verbose_mode: bool = False,
        flaky: bool = False,
        _include_jev_eval_suffix: bool = True,
    ) -> None:
        if evaluation_params is not None and len(evaluation_params) == 0:
            raise ValueError(
                "evaluation_params cannot be an empty list; list the test case fields your questions refer to, "
                "or omit it to evaluate the trace."
            )
        self.evaluation_params = (
            None
            if evaluation_params is None
            else [SingleTurnParams(getattr(p, "value", p)) for p in evaluation_params]
        )
        self._setup(
            name=name,
            questions=questions,
            system_one_model=system_one_model,
            include_reason=include_reason,
            threshold=threshold,
            strict_mode=strict_mode,
            async_mode=async_mode,
            verbose_mode=verbose_mode,
            flaky=flaky,
            include_suffix=_include_jev_eval_suffix,
        )

    def _check_params(self, test_case: Any) -> None:
        if not self.evaluation_params:
            raise MissingTestCaseParamsError(NO_TRACE_HELP.format(name=self.__name__))
        require_fields(test_case, [p.value for p in self.evaluation_params], self.__name__)

    def _state(self, test_case: Any) -> dict[str, Any]:
        fields = {}
        for p in self.evaluation_params or ():
            value = getattr(test_case, p.value, None)
            if populated(value):
                fields[p.value] = state_field(value)
        return {"test_case": fields}
