"""NonAdviceMetric: the share of the checked statements of ``actual_output`` that give no specific advice of the
watched ``advice_types`` (its pipeline: :mod:`deepeval.metrics.non_advice.pipeline`). Requires ``input`` and
``actual_output``. Higher is better; ``threshold`` is a minimum.

``advice_types`` is required and non-empty (``ValueError``, as deepeval 4.3.1). ours: a single string is read as one
type (4.3.1 would join its letters with commas) and each type must be a non-blank string.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.violations import ViolationMetric
from deepeval.metrics.non_advice.pipeline import PIPELINE
from deepeval.metrics.non_advice.prompts import NonAdviceTemplate
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


def check_advice_types(advice_types: Any) -> list[str]:
    """``advice_types`` as a list of stripped strings.

    Raises:
        ValueError: missing, empty, or holding something other than non-blank strings.
    """
    if isinstance(advice_types, str):
        advice_types = [advice_types]
    if not isinstance(advice_types, Sequence) or not advice_types:
        raise ValueError(
            "advice_types must be a non-empty list of advice kinds, e.g. ['financial'] or ['medical', 'legal']; "
            f"got {advice_types!r}"
        )
    if not all(isinstance(t, str) and t.strip() for t in advice_types):
        raise ValueError(f"every advice type must be a non-blank string, got {list(advice_types)!r}")
    return [t.strip() for t in advice_types]


class NonAdviceMetric(ViolationMetric):
    """Share of the output's checked statements that give no specific advice of ``advice_types``. Score in [0, 1];
    higher is better.

    Args (first, as in deepeval 4.3.1; then :class:`~deepeval.metrics._engine.metric.EngineMetric`'s):
        advice_types: the kinds of professional advice the output must not give (``["financial", "medical"]``).

    Raises:
        ValueError: ``advice_types`` missing or empty (see :func:`check_advice_types`).
    """

    pipeline = PIPELINE
    default_template = NonAdviceTemplate
    state_attributes = MappingProxyType({"advice_types": "advice_types_str"})
    config_attributes = ("advice_types",)

    def __init__(
        self,
        advice_types: list[str],
        threshold: float | None = 0.5,
        model: str | DeepEvalBaseLLM | None = None,
        system_one_model: str | DeepEvalBaseSystemOneModel | None = None,
        eval_mode: str | EvalMode | None = None,
        include_reason: bool = True,
        async_mode: bool = True,
        strict_mode: bool = False,
        verbose_mode: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.advice_types = check_advice_types(advice_types)
        self.advice_types_str = ", ".join(self.advice_types)
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
