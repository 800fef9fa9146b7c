"""MisuseMetric: the share of the checked statements of ``actual_output`` that stay within the chatbot's ``domain``
(its pipeline: :mod:`deepeval.metrics.misuse.pipeline`). Requires ``input`` and ``actual_output``.

``domain`` is required and non-empty (``ValueError``, as deepeval 4.3.1), kept stripped and lower-cased as 4.3.1
keeps it. Higher is better and ``threshold`` is a minimum; building one warns once per process, as 4.3.1 does, that
the direction changed from earlier releases.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.violations import ViolationMetric
from deepeval.metrics.misuse.pipeline import PIPELINE
from deepeval.metrics.misuse.prompts import MisuseTemplate
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


class MisuseMetric(ViolationMetric):
    """Share of the output's checked statements that stay within ``domain``. Score in [0, 1]; higher is better.

    Args (first, as in deepeval 4.3.1; then :class:`~deepeval.metrics._engine.metric.EngineMetric`'s):
        domain: what the chatbot is specialised in ("banking", "medical triage").

    Raises:
        ValueError: ``domain`` is missing or blank.
    """

    pipeline = PIPELINE
    default_template = MisuseTemplate
    notes_direction = "MisuseMetric"
    state_attributes = MappingProxyType({"domain": "domain"})
    config_attributes = ("domain",)

    def __init__(
        self,
        domain: str,
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
        if not isinstance(domain, str) or not domain.strip():
            raise ValueError(
                f"domain must be a non-empty string (what the chatbot is specialised in), got {domain!r}"
            )
        self.domain = domain.strip().lower()
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
