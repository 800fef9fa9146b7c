"""HallucinationMetric: the share of the context documents that ``actual_output`` agrees with (its pipeline:
:mod:`deepeval.metrics.hallucination.pipeline`). Requires ``input``, ``actual_output`` and ``context``."""

from __future__ import annotations

import warnings
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics.hallucination.pipeline import PIPELINE
from deepeval.metrics.hallucination.prompts import HallucinationTemplate
from deepeval.metrics.pipeline import PipelineMetric
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor

#: the notice deepeval 4.3.1 also gives (its own words differ): once per process, at the first construction
DIRECTION_NOTICE = (
    "HallucinationMetric scores like every other metric: 1 means the output contradicts no context document, 0 that "
    "it contradicts all of them, and 'threshold' is the MINIMUM passing score. Earlier deepeval releases "
    "scored the share of contradicted documents with 'threshold' as a maximum: a threshold of 0.3 that meant 'at "
    "most 30% contradicted' is now 0.7. Check any threshold you pass and any code that reads '.score'."
)
_warned = False


def _warn_direction() -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(DIRECTION_NOTICE, DeprecationWarning, stacklevel=3)


class HallucinationMetric(PipelineMetric):
    """Share of the ``context`` documents that ``actual_output`` does not contradict. Score in [0, 1]; higher is
    better, and ``threshold`` is a minimum (see :data:`DIRECTION_NOTICE`, given once per process as a
    ``DeprecationWarning``, as deepeval 4.3.1 does). The constructor is
    :class:`~deepeval.metrics._engine.metric.EngineMetric`'s."""

    pipeline = PIPELINE
    default_template = HallucinationTemplate

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
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        _warn_direction()
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
