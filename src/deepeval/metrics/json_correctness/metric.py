"""JsonCorrectnessMetric: 1.0 when ``actual_output`` validates against ``expected_schema`` (a pydantic model:
``model_validate_json``), else 0.0, as deepeval 4.3.1. The score never needs a judge, in any eval mode.

deepeval 4.3.1's constructor: ``expected_schema`` (required), ``model=None``, ``threshold=0.5``,
``async_mode=True``, ``include_reason=True``, ``strict_mode=True`` (so the threshold is 1 by default),
``verbose_mode=False``, ``flaky=False``, ``evaluation_template``, ``eval_mode=None``; required fields ``input`` and
``actual_output``. The reason: a fixed sentence when the output validates; when it does not, the LLM explains the
failure (schema ``JsonCorrectnessScoreReason``), and with no LLM (``system_one`` mode, or none configured) the
validation error itself is the reason.

ours: an ``expected_schema`` that is not a pydantic model (class or instance) is a ``TypeError`` at construction
(deepeval fails at the first measure with an ``AttributeError``); the output is quoted to the reason LLM as data.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ValidationError

from deepeval.config.eval_mode import EvalMode, parse_eval_mode, resolve_eval_mode
from deepeval.metrics._engine.judge_free import Computed, JudgeFreeMetric, checked_threshold
from deepeval.metrics._engine.params import require_fields
from deepeval.metrics._engine.template_calls import call_template
from deepeval.metrics.json_correctness.names import REQUIRED_PARAMS
from deepeval.metrics.json_correctness.prompts import JsonCorrectnessTemplate
from deepeval.metrics.json_correctness.schema import JsonCorrectnessScoreReason
from deepeval.metrics.scoring import effective_threshold
from deepeval.models.base_model import DeepEvalBaseLLM, judge_name
from deepeval.models.structured import a_generate_structured

VALID_REASON = "The actual output is valid JSON that matches the expected schema."


def schema_class(expected_schema: Any) -> type[BaseModel]:
    """The pydantic model class of ``expected_schema`` (a class, or an instance of one) whose JSON schema can be
    written (the reason prompt shows it).

    Raises:
        TypeError: anything else (a dict, a JSON-schema string, a dataclass...), or a model whose JSON schema
            cannot be generated; the message says what is expected.
    """
    cls = type(expected_schema) if isinstance(expected_schema, BaseModel) else expected_schema
    if not (isinstance(cls, type) and issubclass(cls, BaseModel)) or cls is BaseModel:
        raise TypeError(
            "expected_schema must be a pydantic model class (a subclass of pydantic.BaseModel), not "
            f"{type(expected_schema).__name__} {expected_schema!r:.80}"
        )
    try:
        cls.model_json_schema()
    except Exception as err:
        raise TypeError(
            f"expected_schema {cls.__name__}: its JSON schema cannot be generated ({type(err).__name__}: {err})"
        ) from err
    return cls


class JsonCorrectnessMetric(JudgeFreeMetric):
    """1.0 when the output validates against ``expected_schema``, else 0.0. Higher is better; ``threshold`` is a
    minimum (1 in strict mode, the default).

    Raises:
        TypeError: ``expected_schema`` is not a pydantic model (see :func:`schema_class`), or ``model`` is neither
            a name nor a ``DeepEvalBaseLLM``.
        InvalidEvalModeError: ``eval_mode`` is not a valid mode (a ``ValueError``).
    """

    score_digits = 2
    costs_nothing = False  # evaluation_cost stays unknown unless a judge reports one, as in deepeval 4.3.1

    def __init__(
        self,
        expected_schema: type[BaseModel],
        model: str | DeepEvalBaseLLM | None = None,
        threshold: float | None = 0.5,
        async_mode: bool = True,
        include_reason: bool = True,
        strict_mode: bool = True,
        verbose_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        eval_mode: str | EvalMode | None = None,
    ) -> None:
        self._schema = schema_class(expected_schema)
        self.expected_schema = expected_schema
        if model is not None and not isinstance(model, (str, DeepEvalBaseLLM)):
            raise TypeError(f"model must be a model name or a DeepEvalBaseLLM, not {type(model).__name__}")
        self.model = model
        self.eval_mode_argument = (
            None if eval_mode is None else parse_eval_mode(eval_mode, "the eval_mode argument")
        )
        self.threshold = effective_threshold(checked_threshold(threshold), strict_mode)
        self.async_mode = async_mode
        self.include_reason = include_reason
        self.strict_mode = strict_mode
        self.verbose_mode = verbose_mode
        self.flaky = flaky
        self.evaluation_template = evaluation_template or JsonCorrectnessTemplate
        self.reset_result()
        self.evaluation_model = judge_name(model) if isinstance(model, DeepEvalBaseLLM) else None

    @property
    def __name__(self) -> str:
        return "Json Correctness"

    def cache_config(self) -> dict[str, Any]:
        template = self.evaluation_template
        return {
            **super().cache_config(),
            "expected_schema": json.dumps(self._schema.model_json_schema(), sort_keys=True),
            "prompt_version": getattr(
                template, "PROMPT_VERSION", getattr(template, "__name__", repr(template))
            ),
            "eval_mode": None if self.eval_mode_argument is None else self.eval_mode_argument.value,
            "model": self.model
            if self.model is None or isinstance(self.model, str)
            else judge_name(self.model),
        }

    def _compute(self, test_case: Any) -> Computed:
        require_fields(test_case, REQUIRED_PARAMS, self.__name__)
        try:
            self._schema.model_validate_json(test_case.actual_output)
        except ValidationError as err:
            return Computed(
                0.0,
                str(err),
                steps=[("Output", test_case.actual_output), ("Validation error", str(err))],
                breakdown={"valid": False, "errors": err.error_count()},
                judge_calls=0,
            )
        return Computed(
            1.0,
            VALID_REASON,
            steps=[("Output", test_case.actual_output)],
            breakdown={"valid": True},
            judge_calls=0,
        )

    async def _explained(self, test_case: Any, computed: Computed) -> Computed:
        """A valid output keeps its fixed sentence; a failure gets the LLM's explanation, or keeps the validation
        error when there is no LLM (or ``include_reason`` is False: no call)."""
        if computed.score == 1.0 or not self.include_reason:
            return computed
        llm = self._reason_llm()
        if llm is None:
            return computed
        prompt = call_template(
            self.evaluation_template.generate_reason,
            actual_output=test_case.actual_output,
            expected_schema=json.dumps(self._schema.model_json_schema(), indent=4),
            is_valid_json=False,
        )
        reply = await a_generate_structured(llm, prompt, JsonCorrectnessScoreReason)
        return replace(computed, reason=reply.reason, judge_calls=1, evaluation_model=judge_name(llm))

    def _reason_llm(self) -> DeepEvalBaseLLM | None:
        """The LLM that writes a failure's reason: none in ``system_one`` mode (as deepeval), else ``model`` or
        the configured one (None when nothing is configured)."""
        from deepeval.models.resolve import resolve_llm

        has_llm = isinstance(self.model, DeepEvalBaseLLM) or isinstance(self.model, str)
        if resolve_eval_mode(self.eval_mode_argument, has_llm=has_llm or None) is EvalMode.SYSTEM_ONE:
            return None
        return resolve_llm(self.model)
