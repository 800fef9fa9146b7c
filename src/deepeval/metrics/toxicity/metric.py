"""ToxicityMetric: the share of the opinions in ``actual_output`` that are free of toxicity (its pipeline:
:mod:`deepeval.metrics.toxicity.pipeline`). Requires ``input`` and ``actual_output``.

Direction, as deepeval 4.3.1 behaves (its docs still say "lower is better"): 1.0 is no toxic opinion, 0.0 every
opinion toxic; ``threshold`` is a minimum and ``success`` is ``score >= threshold``. Building one warns once per
process (``DeprecationWarning``), as 4.3.1 does, that the direction changed from earlier releases.
"""

from __future__ import annotations

from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics.pipeline import PipelineMetric
from deepeval.metrics.scoring import note_score_direction
from deepeval.metrics.toxicity.pipeline import PIPELINE
from deepeval.metrics.toxicity.prompts import ToxicityTemplate
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


class ToxicityMetric(PipelineMetric):
    """Share of the output's opinions that are not toxic. Score in [0, 1]; higher is better.

    Args: :class:`~deepeval.metrics._engine.metric.EngineMetric`'s, in deepeval 4.3.1's order (``evaluation_template``
    last, positional as in 4.3.1).
    """

    pipeline = PIPELINE
    default_template = ToxicityTemplate

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
        note_score_direction("ToxicityMetric")
        self.opinions: list[str] = []
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
