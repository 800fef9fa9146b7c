"""The class the safety pipeline metrics with deepeval 4.3.1's constructor share (Bias, Toxicity, Misuse,
Non-advice, Role violation; their pipelines: :func:`deepeval.metrics.pipeline.violations.violation_pipeline`).

4.3.1's constructor of these metrics takes ``evaluation_template`` positionally, last of the usual parameters (the
shared :class:`~deepeval.metrics._engine.metric.EngineMetric` takes it by keyword only), and starts each units list
empty. What differs between the metrics is data on the class: whether building one warns that the score direction
changed (:attr:`ViolationMetric.notes_direction`), and which constructor values enter the System One state and the
cache key (:attr:`ViolationMetric.state_attributes`, :attr:`ViolationMetric.config_attributes`). A metric with a
constructor value of its own (Misuse's ``domain``) keeps its own ``__init__`` in 4.3.1's order, checks the value,
sets it, and calls this one.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from types import FrameType, MappingProxyType
from typing import Any, ClassVar

from deepeval.config.eval_mode import EvalMode
from deepeval.metrics._engine.pipeline import PipelineMetric
from deepeval.metrics.scoring import note_score_direction
from deepeval.models.base_model import DeepEvalBaseLLM, DeepEvalBaseSystemOneModel
from deepeval.models.extraction import Extractor


class ViolationMetric(PipelineMetric):
    """A safety pipeline metric with deepeval 4.3.1's constructor (see the module docstring).

    Args: :class:`~deepeval.metrics._engine.metric.EngineMetric`'s, in deepeval 4.3.1's order
    (``evaluation_template`` last, positional as in 4.3.1).
    """

    #: the class name deepeval 4.3.1 warns under, once per process, that the score direction changed (None: no
    #: warning): :func:`deepeval.metrics.scoring.note_score_direction`
    notes_direction: ClassVar[str | None] = None
    #: the constructor values System One's whole-metric state carries beside the test-case fields: state key ->
    #: attribute (Misuse's ``{"domain": "domain"}``)
    state_attributes: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: the attributes holding constructor values that change the result (added to :meth:`cache_config`)
    config_attributes: ClassVar[tuple[str, ...]] = ()

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
        if self.notes_direction is not None:
            note_score_direction(self.notes_direction, stacklevel=3 + self._own_init_frames())
        for units in self.pipeline.units:
            setattr(self, units.name, [])
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

    def _own_init_frames(self) -> int:
        """How many ``__init__`` frames of this object in deepeval's own modules call this one (Misuse's ``__init__``
        calls it): the direction warning points past them, at the code that built the metric."""
        frame: FrameType | None = sys._getframe(2)
        frames = 0
        while (
            frame is not None
            and frame.f_code.co_name == "__init__"
            and frame.f_locals.get("self") is self
            and str(frame.f_globals.get("__name__", "")).startswith("deepeval.")
        ):
            frames += 1
            frame = frame.f_back
        return frames

    def cache_config(self) -> dict[str, Any]:
        return {**super().cache_config(), **{name: getattr(self, name) for name in self.config_attributes}}

    def _system_one_request(self, test_case: Any) -> tuple[Any, list[Any]]:
        state, questions = super()._system_one_request(test_case)
        return {
            **state,
            **{key: getattr(self, name) for key, name in self.state_attributes.items()},
        }, questions
