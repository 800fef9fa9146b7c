"""FaithfulnessMetric: whether the claims of ``actual_output`` agree with ``retrieval_context`` (its pipeline:
:mod:`deepeval.metrics.faithfulness.pipeline`). Requires ``input``, ``actual_output`` and ``retrieval_context``."""

from __future__ import annotations

from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics.faithfulness.pipeline import PIPELINE
from deepeval.metrics.faithfulness.prompts import FaithfulnessTemplate
from deepeval.metrics.pipeline import PipelineMetric
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


class FaithfulnessMetric(PipelineMetric):
    """Share of the output's claims that the retrieval context does not contradict (with
    ``penalize_ambiguous_claims=True``: that it supports). Score in [0, 1]; higher is better.

    Args (besides :class:`~deepeval.metrics._engine.metric.EngineMetric`'s, in deepeval 4.3.1's order):
        truths_extraction_limit: at most this many truths are listed from the retrieval context (None: all;
            a negative number counts as 0).
        penalize_ambiguous_claims: a claim the context is silent on counts against the score.
    """

    pipeline = PIPELINE
    default_template = FaithfulnessTemplate

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
        truths_extraction_limit: int | None = None,
        penalize_ambiguous_claims: bool = False,
        flaky: bool = False,
        evaluation_template: Any = None,
        *,
        question_set: Any = None,
        extractor: Extractor | None = None,
    ) -> None:
        self.truths_extraction_limit = (
            None if truths_extraction_limit is None else max(int(truths_extraction_limit), 0)
        )
        self.penalize_ambiguous_claims = penalize_ambiguous_claims
        self.truths: list[str] = []
        self.claims: list[str] = []
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
