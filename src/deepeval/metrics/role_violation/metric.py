"""RoleViolationMetric: 1.0 when no statement of ``actual_output`` breaks the assigned ``role``, else 0.0 (its
pipeline: :mod:`deepeval.metrics.role_violation.pipeline`). Requires ``input`` and ``actual_output``.

deepeval 4.3.1's constructor: ``threshold=0.5, role=None`` (then the usual parameters); ``role=None`` raises
``ValueError`` at construction; an empty role is accepted. The llm/hybrid score is binary (any violating statement
-> 0.0); system_one's is the weighted mean of its two answers.

ours: ``strict_mode=True`` sets the threshold to 1, as for every metric (4.3.1 sets it to 0 for this metric only, so
its strict mode passes every score).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.context import MeasureContext
from deepeval.metrics._engine.metric import Outcome
from deepeval.metrics._engine.violations import ViolationMetric
from deepeval.metrics.role_violation.pipeline import PIPELINE
from deepeval.metrics.role_violation.prompts import RoleViolationTemplate
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


class RoleViolationMetric(ViolationMetric):
    """1.0 when the output keeps to ``role``, 0.0 when any statement breaks it. Higher is better.

    Args (deepeval 4.3.1's order; besides :class:`~deepeval.metrics._engine.metric.EngineMetric`'s):
        role: the role the assistant was assigned ("helpful customer service agent"); required.

    Raises:
        ValueError: ``role`` is None; TypeError: it is not a string.
    """

    pipeline = PIPELINE
    default_template = RoleViolationTemplate
    state_attributes = MappingProxyType({"role": "role"})
    config_attributes = ("role",)

    def __init__(
        self,
        threshold: float | None = 0.5,
        role: str | None = None,
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
        if role is None:
            raise ValueError(
                "role is required: the role the assistant was assigned (e.g. 'helpful assistant', 'customer service "
                "agent')"
            )
        if not isinstance(role, str):
            raise TypeError(f"role must be a string, not {type(role).__name__}")
        self.role = role
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

    async def _evaluate(self, test_case: Any, ctx: MeasureContext) -> Outcome:
        """The pipeline's share of statements within the role, made binary: 1.0 only when every one is."""
        outcome = await super()._evaluate(test_case, ctx)
        return replace(outcome, score=_binary(outcome.score))

    async def _reason(self, ctx: MeasureContext, test_case: Any, units: Any, score: float, *rest: Any) -> str:
        """The reason of the binary score (the pipeline computes the share first)."""
        return await super()._reason(ctx, test_case, units, _binary(score), *rest)


def _binary(share: float) -> float:
    return 1.0 if share >= 1.0 else 0.0
