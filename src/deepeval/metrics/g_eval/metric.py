"""``GEval``: a metric defined by the user's criteria (or evaluation steps) and optional rubric, over an
``LLMTestCase``; the measure in every eval mode is :class:`~deepeval.metrics.g_eval.criteria.CriteriaMetric`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.errors import MissingTestCaseParamsError
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics.delimit import quote
from deepeval.metrics.g_eval.criteria import (
    NO_TRACE_HELP,
    CriteriaMetric,
    clear_steps_cache,
    field_state,
    field_text,
    number_steps,
)
from deepeval.metrics.g_eval.prompts import GEvalTemplate
from deepeval.metrics.g_eval.questions import GEvalQuestions
from deepeval.metrics.g_eval.rubric import Rubric, format_rubric, validate_criteria_and_evaluation_steps
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.test_case import SingleTurnParams

__all__ = ["GEval", "GEvalTemplate", "Rubric", "clear_steps_cache"]


class GEval(CriteriaMetric):
    """deepeval 4.3.1's constructor (positional order kept), plus our keyword-only ``system_one_model``,
    ``eval_mode`` and ``question_set``. See :mod:`deepeval.metrics.g_eval.criteria` for the measure.

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
        self._define(
            name, evaluation_params, criteria, evaluation_steps, rubric, top_logprobs, _include_g_eval_suffix
        )
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

    def _check_params(self, test_case: Any) -> None:
        if not self.evaluation_params:
            raise MissingTestCaseParamsError(NO_TRACE_HELP.format(name=self.__name__))
        validate_criteria_and_evaluation_steps(self.criteria, self._given_steps)
        require_fields(test_case, [p.value for p in self.evaluation_params], self.__name__)

    def _content(self, test_case: Any) -> str:
        return "\n\n".join(
            f"{self.param_labels[p]}:\n{quote('data', field_text(getattr(test_case, p.value)))}"
            for p in self.evaluation_params or ()
        )

    def _state(self, test_case: Any) -> dict[str, Any]:
        return {p.value: field_state(getattr(test_case, p.value)) for p in self.evaluation_params or ()}

    def _steps_prompt(self) -> str:
        return call_template(
            self.evaluation_template.generate_evaluation_steps,
            criteria=self.criteria,
            parameters=self._params_text(),
            multimodal=False,
        )

    def _results_prompt(self, test_case: Any, steps: Sequence[str], content: str) -> str:
        common: dict[str, Any] = {
            "evaluation_steps": number_steps(steps),
            "test_case_content": content,
            "parameters": self._params_text(),
            "_additional_context": None,
            "multimodal": False,
        }
        if self.strict_mode:
            return call_template(self.evaluation_template.generate_strict_evaluation_results, **common)
        return call_template(
            self.evaluation_template.generate_evaluation_results,
            rubric=format_rubric(self.rubric),
            score_range=self.score_range,
            **common,
        )
